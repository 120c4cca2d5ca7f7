import type { ServerConfig } from './config.ts';

/** What `npm run server -- --help` prints, and the words for a start that fails. */

export const SERVER_USAGE =
  'usage: npm run --silent server -- [--port 8787] [--host 127.0.0.1] [--data ./data] [--test-clock] [--allow-private-fetch] [--trust-proxy] (--help says what each does)';

export const SERVER_HELP = `Shelf server: the Bookmark Library API under /v1, its storage service under
/storage, shared collection pages under /shared, and the API reference at
/v1/openapi.json.

usage: npm run --silent server -- [flags]      (runs the TypeScript sources through tsx)
       npm run --silent serve -- [flags]       (the production build: npm run build:server
                                                first, then plain node)

flags (each flag wins over its environment variable):
  --port N               TCP port to listen on; default 8787, 0 picks a free one. Env PORT.
  --host ADDRESS         address to listen on; default 127.0.0.1 (this machine only), 0.0.0.0
                         for every interface. Env HOST.
  --data DIR             the directory for everything the server keeps: shelf.db (SQLite),
                         uploaded files and export files; default ./data, created on first
                         start. Env DATA_DIR.
  --allow-private-fetch  lets the page fetcher (the title and description of a new bookmark)
                         reach loopback and private network addresses; without it such URLs
                         are never fetched.
  --trust-proxy          takes the client address from the X-Forwarded-For header, for a
                         server behind a reverse proxy; without it the per-address limits
                         and the IP block key on the TCP peer address.
  --test-clock           enables POST /__test__/clock {"advanceMs": N}, which moves the
                         server's clock forward (for tests only).
  --raise-limits         lifts the request-count limits out of a load generator's reach (for
                         benchmarks only).
  -h, --help             prints this help and exits 0.

On its first start with an empty data directory it creates a Pro user and prints that
user's API token, once. It prints "listening http://HOST:PORT/v1" once it accepts
connections. SIGINT or SIGTERM finish the requests in flight, close the database and
exit 0. It exits 1 when it cannot start (the port is taken, the data directory cannot be
used) and 2 on bad flags. Accounts and tokens: npm run --silent admin -- --help.`;

/** One line, no stack trace: what kept the server from starting and what to do about it. */
export function startFailure(err: unknown, config: Pick<ServerConfig, 'host' | 'port' | 'dataDir'>): string {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${config.host} port ${config.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${where} is already in use, probably by another Shelf server. Stop that one, or start this one on another port: --port N (or PORT=N).`;
    case 'EACCES':
      return `not allowed to listen on ${where} (ports below 1024 need privileges). Choose a port above 1023: --port N.`;
    case 'EADDRNOTAVAIL':
      return `${config.host} is not an address of this machine. Use --host 127.0.0.1, or 0.0.0.0 for every interface.`;
    default:
      return `could not start with the data directory ${config.dataDir}: ${err instanceof Error ? err.message : String(err)}`;
  }
}
