import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../server/db/postgres/connect.ts';
import { startPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** A database of that cluster with every migration applied, which the test servers' databases are copies of. */
    postgresTemplate: string;
  }
}

/**
 * Global setup of the `server-postgres` project: one throwaway cluster for the whole run (initdb
 * takes seconds); every test server gets a database of its own in it (see startTestServer), copied
 * from one migrated here once: a copy costs the cluster some 120 ms of CPU, running the migrations into
 * a new database some 300 ms. The migrations themselves are tested on new databases (test/server/postgres/).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgres();
  const template = await cluster.createDatabase();
  await (await openPostgres(template)).close();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  project.provide('postgresTemplate', new URL(template).pathname.slice(1));
  return () => cluster.stop();
}
