import { ALL_SCOPES } from '../lib/api/scopes.ts';
import type { ServerConfig } from './config.ts';

/** What `--help` prints for the server and the admin command, and the words for a start that fails. */

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
  --trust-proxy          for a server behind one reverse proxy: the client's address is the
                         one the proxy added to X-Forwarded-For (its rightmost entry); without
                         it the per-address limits and the IP block key on the TCP peer.
  --trust-proxy-hops N   the same behind N proxies in a chain (1 to 10): the client's address
                         is the Nth X-Forwarded-For entry from the right.
  --ipv6-prefix N        the per-address limits and the IP block key on an IPv6 client's
                         network of N bits (16 to 128; default 64, a subscriber's usual
                         share; 128: the whole address). IPv4 addresses, and IPv4-mapped
                         IPv6 ones, key on the address. Env IPV6_PREFIX.
  --redis URL            redis://HOST:PORT (or rediss://): the Redis that several instances on
                         one database share for every limit, IP block and the test clock; the
                         instance does not start without it. Env REDIS_URL.
  --database URL         postgres://USER@HOST:PORT/DB: keeps every record, uploaded file and
                         export file in this PostgreSQL database, shared by every instance
                         started with it (--data is then not used). Env DATABASE_URL.
  --job-lease-ms N       how long an instance holds an import or export job between heartbeats
                         before another instance may take it over; default 30000.
  --no-link-check        turns off the link checker, which otherwise re-checks every bookmark's
                         URL in the background (one GET through the same guard as the page
                         fetcher, headers only). Env LINK_CHECK=off.
  --link-check           turns the link checker on under --test-clock (off there by default).
  --link-check-pace-ms N      least time between two requests to one host; default 2000.
  --link-check-concurrency N  link checks in flight at once on this instance; default 8.
  --link-check-daily-cap N    link checks per user and day; default 2000.
  --link-check-recheck-ms N   a link is checked again this long after its last check;
                              default 604800000 (7 days).
  --link-check-timeout-ms N   a check with no answer by then is unreachable; default 10000.
  --link-check-poll-ms N      how often an idle checker looks for due links; default 60000.
  --test-clock           enables POST /__test__/clock {"advanceMs": N}, which moves the
                         server's clock forward (for tests only; shared through --redis).
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

export const ADMIN_HELP = `Shelf admin: manages the accounts, API tokens and IP blocks of a Shelf server's data
directory or database, also while the servers run (changes apply to their very next request).

usage: npm run --silent admin -- --data DIR [--redis URL] <command> [flags]
       npm run --silent admin -- --database URL [--redis URL] <command> [flags]
       npm run --silent serve:admin -- --data DIR <command> [flags]   (the production build)

Each command prints one JSON object on stdout and exits 0; on a problem it prints
the reason on stderr and exits 2 (bad arguments) or 1 (the database refused).

  --data DIR     the server's data directory (the one it was started with: --data or
                 DATA_DIR, ./data by default). It must exist; the admin command never
                 creates one.
  --database URL postgres://USER@HOST:PORT/DB: the PostgreSQL database the servers share
                 (their --database or DATABASE_URL); the schema is brought up to date
                 first, as a server's start does. Env DATABASE_URL, used when neither
                 flag is given. Give --data or --database, not both.
  --redis URL    the Redis the servers share (--redis or REDIS_URL of the servers):
                 the block commands read and lift the blocks there.

commands:
  user create --name NAME --email EMAIL --plan pro|free
                 creates a user; prints {"userId"}. Only Pro users may use the API.
  user plan --user USER_ID --plan pro|free
                 moves a user to another plan; prints {"userId", "plan"}.
  user list      every user, oldest first, with the number of tokens that still work;
                 prints {"users": [{"userId", "name", "email", "plan", "status",
                 "createdAt", "activeTokens"}]}.
  token create --user USER_ID --name NAME --scopes SCOPE[,SCOPE...]|all [--expires ISO_8601]
                 makes an API token for a Pro user and prints it, once: {"tokenId", "token"}.
                 --name labels it; --scopes lists what it may do (${ALL_SCOPES.join(', ')},
                 or all); --expires is when it stops working (default never). A user has
                 at most 10 working tokens.
  token revoke --id TOKEN_ID
                 stops a token at once; prints {"tokenId", "revoked": true}.
  token list --user USER_ID
                 a user's tokens (never the token itself, which is not kept):
                 {"tokens": [{"tokenId", "name", "scopes", "createdAt", "expiresAt",
                 "revokedAt", "lastUsedAt"}]}.
  block list     the addresses blocked after repeated failed authentication (an IPv6
                 client as its network, 2001:db8:1:2::/64), and when each block ends:
                 {"blocks": [{"ip", "until"}]}.
  block lift --ip ADDRESS
                 lifts the block on an IPv4 or IPv6 address at once (an IPv6 address lifts
                 the network's block that covers it); prints {"ip", "lifted": true}.

  -h, --help     prints this help and exits 0.`;

export const COPY_HELP = `Shelf copy-to-postgres: moves a self-hosted library from SQLite to PostgreSQL. It copies
every record of the data directory's database (users, tokens, collections, bookmarks, tags,
smart folders, jobs, blocks) and every stored file into an empty PostgreSQL database, in one
transaction: all of it or nothing. Stop the server first, then start it with --database.

usage: npm run --silent copy-to-postgres -- --data DIR --database postgres://USER@HOST:PORT/DB

flags:
  --data DIR        the data directory of the SQLite server (it must hold shelf.db).
  --database URL    the PostgreSQL database to fill; it must hold no library yet (the schema
                    is created when missing). Env DATABASE_URL.
  -h, --help        prints this help and exits 0.

It prints one JSON object, {"copied": {TABLE: ROWS, ...}, "files": {"files": N, "bytes": N},
"ms": N}, and exits 0; 1 when
the copy fails (nothing is left in PostgreSQL), 2 on bad flags.`;
