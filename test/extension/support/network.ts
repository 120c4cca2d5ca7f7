import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A local port nothing listens on: connecting to it is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface FakeServer {
  /** Its base URL, ending in /v1 as an API's would. */
  baseUrl: string;
  close(): Promise<void>;
}

/** A tiny HTTP server that is not a Bookmark Library API: it answers whatever the test writes. */
export async function startFakeServer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<FakeServer> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
