import type { TestProject } from 'vitest/node';
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
 * takes seconds); every test server gets a database of its own in it (see startTestServer), a copy of
 * one migrated here once (see createMigratedDatabase). The migrations themselves run into a new database
 * in every file of test/server/postgres/ and in the command-line and instance tests.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgres({ autovacuum: false });
  project.provide('postgresAdminUrl', cluster.adminUrl);
  project.provide('postgresTemplate', await cluster.migratedTemplate());
  return () => cluster.stop();
}
