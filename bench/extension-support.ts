import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import type { Workspace } from './workspace.ts';

/** What the extension sections share: the hello-world baseline page and a proxy that counts the extension's requests. */

const HELLO_DIR = fileURLToPath(new URL('./hello-page', import.meta.url));
/** Requests may trail the visible answer (a cache refresh): they count too. */
const SETTLE_MS = 1_000;

/** The baseline page, built like the extension's pages; answers its folder, to load into the extension (`extraPages`). */
export async function buildHelloPage(ws: Workspace): Promise<string> {
  const helloDir = ws.file('hello-page');
  await build({
    root: HELLO_DIR,
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [react(), tailwindcss()],
    build: { outDir: helloDir, emptyOutDir: true },
  });
  return helloDir;
}

export function describeRequests(requests: string[]): string {
  if (requests.length === 0) return '0';
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return `${requests.length} (${[...counts].map(([r, n]) => (n > 1 ? `${n} × ${r}` : r)).join(', ')})`;
}

export interface CountingProxy {
  origin: string;
  /** Runs work, waits for trailing requests, and answers "METHOD /path" for each request that reached the server meanwhile. */
  count(work: () => Promise<void>): Promise<string[]>;
  close(): Promise<void>;
}

/** A pass-through HTTP proxy in front of the server: every request the extension sends is seen here. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${new URL(req.url ?? '/', target).pathname}`);
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async count(work) {
      const start = seen.length;
      await work();
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      return seen.slice(start);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
