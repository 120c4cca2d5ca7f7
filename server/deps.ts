import type { Redis } from 'ioredis';
import { Authenticator } from './auth/authenticate.ts';
import { Clock, DAY } from './clock.ts';
import type { ServerConfig } from './config.ts';
import { JobRunner } from './jobs/runner.ts';
import { checkLink } from './link-check/check-link.ts';
import { LinkChecker } from './link-check/checker.ts';
import { Guards } from './limits/guards.ts';
import { newId } from './ids.ts';
import type { LimitStore } from './limits/limit-store.ts';
import { MemoryLimitStore } from './limits/memory-limit-store.ts';
import { type LimitPolicy, raisedLimits, specLimits } from './limits/policy.ts';
import { RedisLimitStore } from './limits/redis-limit-store.ts';
import { Maintenance } from './maintenance.ts';
import { type PageMetadata, fetchPageMetadata } from './metadata/index.ts';
import { ResponseCache, type ResponseCacheLimits } from './http/response-cache.ts';
import { StorageService } from './storage/service.ts';
import { RedisClockOffset } from './redis/clock-offset.ts';
import type { Store } from './store/store.ts';

/** What the routes are built from: one instance of each per server. */
export interface ServerDeps {
  config: ServerConfig;
  clock: Clock;
  store: Store;
  /** Every limit's state, behind the guards (the admin's block commands use the same kind of store). */
  limits: LimitStore;
  guards: Guards;
  authenticator: Authenticator;
  maintenance: Maintenance;
  fetchMetadata: (url: string) => Promise<PageMetadata>;
  storage: StorageService;
  jobRunner: JobRunner;
  /** Answers of read endpoints, shared by every route. */
  responseCache: ResponseCache;
  /** This process among the instances that share the database: the owner named in job leases. */
  instanceId: string;
  /** Re-checks the bookmarks' links in the background (started by startServer when config.linkCheck.enabled). */
  linkChecker: LinkChecker;
}

/** What a test sets that no flag does: bounds small enough for a test to reach with a few requests. */
export interface DepsOptions {
  responseCacheLimits?: ResponseCacheLimits;
  /** In place of the spec's limits (or --raise-limits'). */
  limitPolicy?: LimitPolicy;
}

/** `redis`: what the instances share beyond the database (config.redisUrl, connected); null: this process alone. */
export function createDeps(config: ServerConfig, store: Store, redis: Redis | null = null, options: DepsOptions = {}): ServerDeps {
  const clock = new Clock(redis && config.testClock ? new RedisClockOffset(redis) : null);
  const limits: LimitStore = redis ? new RedisLimitStore(redis) : new MemoryLimitStore(store.blocks);
  const maintenance = new Maintenance(() => clock.now());
  maintenance.add('forget-idempotency-keys', (now) => store.idempotency.purgeOlderThan(now - DAY));
  maintenance.add('forget-ended-ip-blocks', (now) => store.blocks.purgeEnded(now));
  const deps: Omit<ServerDeps, 'linkChecker'> = {
    config,
    clock,
    store,
    limits,
    guards: new Guards(limits, options.limitPolicy ?? (config.raiseLimits ? raisedLimits : specLimits), clock),
    authenticator: new Authenticator(store.accounts),
    maintenance,
    fetchMetadata: (url) => fetchPageMetadata(url, { allowPrivate: config.allowPrivateFetch }),
    storage: new StorageService({ store, clock }),
    jobRunner: new JobRunner(),
    responseCache: new ResponseCache(options.responseCacheLimits),
    instanceId: newId('inst'),
  };
  const { allowPrivateFetch: allowPrivate, linkCheck } = config;
  return { ...deps, linkChecker: new LinkChecker(deps, (url) => checkLink(url, { allowPrivate, timeoutMs: linkCheck.timeoutMs })) };
}
