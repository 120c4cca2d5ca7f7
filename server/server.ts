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

/**
 * How long an idle kept-alive connection stays open: longer than the 60 s idle timeout of common balancers and proxies
 * (Node's default is 5 s). A client that sends its next request on a kept connection as the server closes it gets a
 * reset instead of an answer; the client with the shorter timeout must be the one to close.
 */
export const KEEP_ALIVE_MS = 65_000;

function keepIdleConnections(server: ServerType): void {
  if (!('keepAliveTimeout' in server)) return;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Above it: in Node before 18 a kept connection's headers were timed from the previous answer.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
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
      keepIdleConnections(s);
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
          // A connection whose answer is still going out then idles for a moment, not for KEEP_ALIVE_MS.
          if ('keepAliveTimeout' in server) server.keepAliveTimeout = 10;
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
