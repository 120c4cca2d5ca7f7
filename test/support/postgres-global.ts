import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/**
 * Global setup of the `server-postgres` project: one throwaway cluster for the whole run (initdb
 * takes seconds); every test server gets a database of its own in it (see startTestServer).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgres();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
