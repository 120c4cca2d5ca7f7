import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { z } from 'zod';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  testClock: boolean;
  allowPrivateFetch: boolean;
  /** Trusted proxies in front of the server (0: none): how far from the right of X-Forwarded-For the client's address is. */
  proxyHops: number;
  /** Benchmarks only: raises the request-count limits out of a load generator's reach. */
  raiseLimits: boolean;
  /** --redis / REDIS_URL: the Redis every instance shares (limits, blocks, test clock); null: this process alone. */
  redisUrl: string | null;
  /** --database / DATABASE_URL: the PostgreSQL database every instance shares; null: SQLite in dataDir. */
  databaseUrl: string | null;
  /** How long an instance holds a job without renewing its lease; another takes the job over after that. */
  jobLeaseMs: number;
  /** --ipv6-prefix / IPV6_PREFIX: the per-address limits and blocks key on an IPv6 client's network of this many bits (128: the address). */
  ipv6Prefix: number;
  /** The link checker (server/link-check/). */
  linkCheck: LinkCheckConfig;
}

export interface LinkCheckConfig {
  /** On by default, off with --no-link-check or LINK_CHECK=off, and off under --test-clock unless --link-check. */
  enabled: boolean;
  /** A link is checked again this long after its last check. */
  recheckMs: number;
  /** The least time between two requests to one host (host:port) from this instance. */
  hostPaceMs: number;
  /** Requests in flight at once on this instance. */
  concurrency: number;
  /** Checks per user and day (the server's clock), whichever instance makes them. */
  dailyCap: number;
  /** A check with no response headers by then is `unreachable`. */
  timeoutMs: number;
  /** How often an idle checker looks for links that became due. */
  pollMs: number;
}

export const LINK_CHECK_DEFAULTS: LinkCheckConfig = {
  enabled: true,
  recheckMs: 7 * 24 * 3_600_000,
  hostPaceMs: 2000,
  concurrency: 8,
  dailyCap: 2000,
  timeoutMs: 10_000,
  pollMs: 60_000,
};

/** Flag name, key and bounds of each number of the link checker. */
const LINK_CHECK_NUMBERS = [
  ['link-check-recheck-ms', 'recheckMs', 1000, 365 * 24 * 3_600_000],
  ['link-check-pace-ms', 'hostPaceMs', 0, 3_600_000],
  ['link-check-concurrency', 'concurrency', 1, 256],
  ['link-check-daily-cap', 'dailyCap', 1, 1_000_000],
  ['link-check-timeout-ms', 'timeoutMs', 100, 120_000],
  ['link-check-poll-ms', 'pollMs', 10, 3_600_000],
] as const;

const MAX_PROXY_HOPS = 10;
const Port = z.coerce.number().int().min(0).max(65535);
const RedisUrl = z.string().regex(/^rediss?:\/\/\S+$/);
const DatabaseUrl = z.string().regex(/^postgres(ql)?:\/\/\S+$/);
const LeaseMs = z.coerce.number().int().min(1000).max(3_600_000);
const Ipv6Prefix = z.coerce.number().int().min(16).max(128);

/** Flags win over PORT, HOST, DATA_DIR, REDIS_URL, DATABASE_URL and IPV6_PREFIX (empty: unset), which win over the defaults. */
export function parseServerConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'test-clock': { type: 'boolean', default: false },
      'allow-private-fetch': { type: 'boolean', default: false },
      'trust-proxy': { type: 'boolean', default: false },
      'trust-proxy-hops': { type: 'string' },
      'raise-limits': { type: 'boolean', default: false },
      redis: { type: 'string' },
      database: { type: 'string' },
      'job-lease-ms': { type: 'string' },
      'ipv6-prefix': { type: 'string' },
      'link-check': { type: 'boolean', default: false },
      'no-link-check': { type: 'boolean', default: false },
      ...Object.fromEntries(LINK_CHECK_NUMBERS.map(([flag]) => [flag, { type: 'string' as const }])),
    },
    strict: true,
    allowPositionals: false,
  });
  const port = Port.safeParse(values.port ?? env.PORT ?? '8787');
  if (!port.success) throw new Error(`--port must be a number from 0 to 65535, got ${values.port ?? env.PORT}`);
  const redisUrl = values.redis ?? (env.REDIS_URL || undefined);
  if (redisUrl !== undefined && !RedisUrl.safeParse(redisUrl).success) {
    throw new Error('--redis must be a URL like redis://HOST:PORT (or rediss:// for TLS)');
  }
  const databaseUrl = values.database ?? (env.DATABASE_URL || undefined);
  if (databaseUrl !== undefined && !DatabaseUrl.safeParse(databaseUrl).success) {
    throw new Error('--database must be a URL like postgres://USER@HOST:PORT/DB');
  }
  const lease = LeaseMs.safeParse(values['job-lease-ms'] ?? '30000');
  if (!lease.success) throw new Error(`--job-lease-ms must be a whole number of ms from 1000 to 3600000, got ${values['job-lease-ms']}`);
  const ipv6Prefix = values['ipv6-prefix'] ?? (env.IPV6_PREFIX || '64');
  const prefix = Ipv6Prefix.safeParse(ipv6Prefix);
  if (!prefix.success) throw new Error(`--ipv6-prefix must be a whole number of bits from 16 to 128, got ${ipv6Prefix}`);
  return {
    port: port.data,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    dataDir: resolve(values.data ?? env.DATA_DIR ?? './data'),
    testClock: values['test-clock'],
    allowPrivateFetch: values['allow-private-fetch'],
    proxyHops: proxyHops(values['trust-proxy'], values['trust-proxy-hops']),
    raiseLimits: values['raise-limits'],
    redisUrl: redisUrl ?? null,
    databaseUrl: databaseUrl ?? null,
    jobLeaseMs: lease.data,
    ipv6Prefix: prefix.data,
    linkCheck: linkCheckConfig(values, env),
  };
}

/** Off with --no-link-check or LINK_CHECK=off|0|false; off under --test-clock unless --link-check asks for it. */
function linkCheckConfig(values: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv): LinkCheckConfig {
  if (values['link-check'] === true && values['no-link-check'] === true) throw new Error('--link-check and --no-link-check contradict each other');
  const envOff = ['off', '0', 'false'].includes((env.LINK_CHECK ?? '').trim().toLowerCase());
  const enabled = values['no-link-check'] === true ? false : values['link-check'] === true || (!envOff && values['test-clock'] !== true);
  const config: LinkCheckConfig = { ...LINK_CHECK_DEFAULTS, enabled };
  for (const [flag, key, min, max] of LINK_CHECK_NUMBERS) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw);
    if (!parsed.success) throw new Error(`--${flag} must be a whole number from ${min} to ${max}, got ${raw}`);
    config[key] = parsed.data;
  }
  return config;
}

const Hops = z.coerce.number().int().min(1).max(MAX_PROXY_HOPS);

/** --trust-proxy is one trusted proxy; --trust-proxy-hops N is N of them (and implies --trust-proxy). */
function proxyHops(trustProxy: boolean, hops: string | undefined): number {
  if (hops === undefined) return trustProxy ? 1 : 0;
  const parsed = Hops.safeParse(hops);
  if (!parsed.success) throw new Error(`--trust-proxy-hops must be a whole number from 1 to ${MAX_PROXY_HOPS}, got ${hops}`);
  return parsed.data;
}
