import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import { createApp } from '../server/app.ts';
import { parseServerConfig } from '../server/config.ts';
import { createDeps } from '../server/deps.ts';
import { openSqliteStore } from '../server/store/sqlite/index.ts';
const token = readFileSync('/tmp/perf/token', 'utf8').trim();
const config = parseServerConfig(['--data', '/tmp/perf/data', '--raise-limits'], {});
const store = openSqliteStore(config.dataDir);
const app = createApp(createDeps(config, store));
const text = readFileSync('/tmp/perf/page.json', 'utf8');
const hono = new Hono();
hono.get('/v1/bookmarks', (c) => c.body(text, 200, { 'Content-Type': 'application/json' }));
const env = { incoming: { socket: { remoteAddress: '127.0.0.1', remoteFamily: 'IPv4', remotePort: 1 } } };
const url = 'http://127.0.0.1:8787/v1/bookmarks?limit=50';
async function time(name: string, f: () => Promise<Response>) {
  for (let i = 0; i < 5000; i++) await (await f()).text();
  const N = 30000; const t = performance.now();
  for (let i = 0; i < N; i++) await (await f()).text();
  console.log(name, ((performance.now() - t) / N * 1000).toFixed(1), 'µs/request');
}
const headers = { Authorization: `Bearer ${token}` };
for (let r = 0; r < 2; r++) {
  await time('hono same bytes', async () => hono.fetch(new Request(url, { headers }), env));
  await time('shelf', async () => app.fetch(new Request(url, { headers }), env));
}
