import { type ServerType, serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { HOUR } from './clock.ts';
import type { ServerConfig } from './config.ts';
import { type DepsOptions, type ServerDeps, createDeps } from './deps.ts';
import type { AppEnv } from './http/env.ts';
import { resumeInterruptedJobs, watchForInterruptedJobs } from './jobs/recovery.ts';
import { makeDataDirPrivate, privateModesNotice } from './private-data-dir.ts';
import { openRedis } from './redis/connect.ts';
import { openStore } from './store/open.ts';

export interface RunningServer {
  baseUrl: string;
  origin: string;
  deps: ServerDeps;
  /** Its routes are what the HTTP reference is checked against. */
  app: Hono<AppEnv>;
  /** Stops taking connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(config: ServerConfig, options: DepsOptions = {}): Promise<RunningServer> {
  if (config.databaseUrl === null) {
    const changed = makeDataDirPrivate(config.dataDir);
    if (changed > 0) console.error(privateModesNotice(config.dataDir, changed));
  }
  const redis = config.redisUrl === null ? null : await openRedis(config.redisUrl);
  const store = await openStore(config);
  const deps = createDeps(config, store, redis, options);
  const app = createApp(deps);
  await deps.clock.sync();
  await deps.maintenance.run();
  deps.maintenance.start(HOUR / 4);
  await resumeInterruptedJobs(deps);
  const stopWatchingJobs = watchForInterruptedJobs(deps);
  deps.linkChecker.start();

  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    // Not listening (say, the port is taken): stop what started and let the caller say why.
    await deps.maintenance.stop();
    await deps.linkChecker.stop();
    await deps.jobRunner.stop();
    await store.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const origin = `http://${host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    deps,
    app,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
        await deps.maintenance.stop();
        stopWatchingJobs();
        await deps.linkChecker.stop();
        await deps.jobRunner.stop();
        await store.close();
        // quit() waits for Redis to say goodbye; a Redis that is away would make it throw.
        await redis?.quit().catch(() => redis.disconnect());
      })()),
  };
}
