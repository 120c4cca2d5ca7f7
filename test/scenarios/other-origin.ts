import { type AddressInfo, type Server, connect, createServer } from 'node:net';

/**
 * A server of this computer at another origin: 127.0.0.2 (still this computer, so plain http is fine) forwarded
 * to it. Answers that origin, and baseUrl's path there.
 */
export async function forwardFrom127002(baseUrl: string): Promise<{ origin: string; baseUrl: string; close(): Promise<void> }> {
  const target = new URL(baseUrl);
  const server: Server = createServer((socket) => {
    const upstream = connect(Number(target.port), target.hostname);
    socket.pipe(upstream).pipe(socket);
    const end = () => (socket.destroy(), upstream.destroy());
    socket.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const origin = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: origin + target.pathname,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
