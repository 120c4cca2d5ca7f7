import { Authenticator } from './auth/authenticate.ts';
import { Clock, DAY } from './clock.ts';
import type { ServerConfig } from './config.ts';
import { JobRunner } from './jobs/runner.ts';
import { Guards } from './limits/guards.ts';
import { MemoryLimitStore } from './limits/memory-limit-store.ts';
import { raisedLimits, specLimits } from './limits/policy.ts';
import { Maintenance } from './maintenance.ts';
import { type PageMetadata, fetchPageMetadata } from './metadata/index.ts';
import { ResponseCache } from './http/response-cache.ts';
import { StorageService } from './storage/service.ts';
import type { Store } from './store/store.ts';

/** What the routes are built from: one instance of each per server. */
export interface ServerDeps {
  config: ServerConfig;
  clock: Clock;
  store: Store;
  guards: Guards;
  authenticator: Authenticator;
  maintenance: Maintenance;
  fetchMetadata: (url: string) => Promise<PageMetadata>;
  storage: StorageService;
  jobRunner: JobRunner;
  /** Answers of read endpoints, shared by every route. */
  responseCache: ResponseCache;
}

export function createDeps(config: ServerConfig, store: Store): ServerDeps {
  const clock = new Clock();
  const maintenance = new Maintenance(() => clock.now());
  maintenance.add('forget-idempotency-keys', (now) => store.idempotency.purgeOlderThan(now - DAY));
  maintenance.add('forget-ended-ip-blocks', (now) => store.blocks.purgeEnded(now));
  return {
    config,
    clock,
    store,
    guards: new Guards(new MemoryLimitStore(store.blocks), config.raiseLimits ? raisedLimits : specLimits, clock),
    authenticator: new Authenticator(store.accounts),
    maintenance,
    fetchMetadata: (url) => fetchPageMetadata(url, { allowPrivate: config.allowPrivateFetch }),
    storage: new StorageService({ dataDir: config.dataDir, store, clock }),
    jobRunner: new JobRunner(),
    responseCache: new ResponseCache(),
  };
}
