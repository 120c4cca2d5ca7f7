import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

/**
 * The baselines of the HTTP benchmark: `bare <file>` is node:http alone, `hono <file>`
 * a Hono app on @hono/node-server, each answering every GET with the bytes of the
 * file (Shelf's own 50-bookmark page, saved by the bench), so that the three servers
 * send the same answer and differ only in the work behind it. Run as its own
 * process; prints `listening <url>` like the Shelf server.
 */
const [kind, file] = process.argv.slice(2);
if ((kind !== 'bare' && kind !== 'hono') || file === undefined) {
  console.error('usage: http-baseline-server.ts bare|hono <answer file>');
  process.exit(2);
}
const bytes = readFileSync(file);

const server: Server = kind === 'bare' ? bareServer(bytes) : honoServer(bytes.toString('utf8'));
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening http://127.0.0.1:${port}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(0));
}

function bareServer(body: Buffer): Server {
  const headers = { 'Content-Type': 'application/json', 'Content-Length': body.length };
  return createServer((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, headers);
    res.end(body);
  }).listen(0, '127.0.0.1');
}

/** The way a Hono app answers with JSON it already has as text. */
function honoServer(text: string): Server {
  const app = new Hono();
  app.get('*', (c) => c.body(text, 200, { 'Content-Type': 'application/json' }));
  return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
}
