import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The baseline of the HTTP benchmark: what node:http alone does on this machine,
 * answering a constant small JSON in the API's envelope shape. Run as its own
 * process; prints `listening <url>` like the Shelf server.
 */
const body = JSON.stringify({ data: { ok: true }, meta: { requestId: 'req_0000000000000000' } });
const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };

const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening http://127.0.0.1:${port}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
