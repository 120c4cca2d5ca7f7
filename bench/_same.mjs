import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const body = readFileSync('/tmp/perf/page.json');
const kind = process.argv[2];
const port = Number(process.argv[3]);
if (kind === 'bare') {
  const headers = { 'Content-Type': 'application/json', 'Content-Length': body.length };
  createServer((_q, res) => { res.writeHead(200, headers); res.end(body); }).listen(port, '127.0.0.1');
} else {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const text = body.toString();
  const app = new Hono();
  app.get('/v1/bookmarks', (c) => c.body(text, 200, { 'Content-Type': 'application/json' }));
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
}
console.log('listening');
