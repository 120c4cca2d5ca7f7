import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The header the balancer adds to each answer: the index of the target that gave it. */
export const BACKEND = 'x-test-backend';

/**
 * Sends each request to the next target origin in turn, as a load balancer does, and says
 * which one answered; a target that cannot be reached is a 502, as a balancer answers.
 */
export function roundRobin(targets: () => Array<{ origin: string }>): Promise<{ server: Server; baseUrl: string }> {
  let turn = 0;
  const server = createServer((req, res) => {
    const live = targets();
    const index = turn++ % live.length;
    const target = new URL(live[index]!.origin);
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, { ...answer.headers, [BACKEND]: String(index) });
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502).end(err.message);
      else res.destroy();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })),
  );
}
