import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The sites of the Link check bench: one small page for every GET or HEAD, on every loopback
 * address (127.x.y.z) at one port, so that 200 addresses are 200 hosts to the checker's pace.
 * Run as its own process, so that answering the checks never shares the bench's event loop;
 * prints `listening <url>` like the Shelf server.
 */
const page = Buffer.from('<!doctype html><title>A page</title><p>Still here.</p>');
const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': page.length };

const server = createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : page);
});
// The wildcard address: a socket bound to 127.0.0.1 alone would not answer 127.1.0.2.
server.listen(0, '0.0.0.0', () => console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
