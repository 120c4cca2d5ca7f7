import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does to the requests it gets:
 * - `pass`: forwards them;
 * - `down`: drops each connection unanswered, as a stopped server's address does;
 * - `error500`: answers 500 without forwarding (the server never sees it);
 * - `malformed`: forwards (the server acts on it) and answers 200 with a body that is not JSON;
 * - `dropAfterCommit`: forwards, waits for the server's whole answer, then cuts the connection: the
 *   server has committed, the client never learns it;
 * - `{ delayMs }`: forwards after a pause;
 * - `{ status, code, retryAfter }`: answers that API error without forwarding (with Retry-After, in seconds, when given).
 */
export type Fault = 'pass' | 'down' | 'error500' | 'malformed' | 'dropAfterCommit' | { delayMs: number } | { status: number; code: string; retryAfter?: number };

export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  fault: Fault;
  /** What the server answered, when it was asked. */
  status: number | null;
  replayed: boolean;
}

export interface FaultProxy {
  /** The proxied API base URL (…/v1). */
  baseUrl: string;
  /** Where it forwards to (a restarted server listens on another port): an origin or a base URL on the same path. */
  target: string;
  fault: Fault;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/** A small HTTP proxy of the tests' own in front of the real server, to inject the faults a network and a server can have. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { baseUrl: '', target, fault: 'pass', requests: [], close: () => Promise.resolve() };

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      const upstream = new URL(proxy.target);
      const out = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const fault = proxy.fault;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const key = req.headers['idempotency-key'];
    const entry: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://proxy').pathname,
      idempotencyKey: typeof key === 'string' ? key : null,
      fault,
      status: null,
      replayed: false,
    };
    proxy.requests.push(entry);
    if (fault === 'down') return void req.socket.destroy();
    if (fault === 'error500') return json(res, 500, { error: { code: 'INTERNAL_ERROR', message: 'injected' }, meta: { requestId: 'proxy' } });
    if (typeof fault === 'object' && 'status' in fault) {
      const body = { error: { code: fault.code, message: `injected ${fault.code}` }, meta: { requestId: 'proxy' } };
      return json(res, fault.status, body, fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) });
    }
    if (typeof fault === 'object') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const answer = await forward(req, Buffer.concat(chunks));
    entry.status = answer.status;
    entry.replayed = answer.headers['idempotent-replayed'] === 'true';
    if (fault === 'dropAfterCommit') return void req.socket.destroy();
    if (fault === 'malformed') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data": {"id": ');
    res.writeHead(answer.status, answer.headers).end(answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.baseUrl = `http://127.0.0.1:${port}${new URL(target).pathname.replace(/\/+$/, '')}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}
