import { afterAll, afterEach, beforeAll } from 'vitest';
import { openPostgres } from '../../../server/db/postgres/connect.ts';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { type TestPostgres, startPostgres } from '../../support/postgres.ts';

/**
 * One throwaway cluster for the test file; `fresh()` opens a new empty, migrated database on
 * it (`pools` > 1: that many pools on the same database, as separate instances would hold).
 * Every pool is closed after its test.
 */
export function freshDatabases(): { fresh: (pools?: number) => Promise<Pg[]>; url: () => string } {
  let cluster: TestPostgres;
  let lastUrl = '';
  const open: Pg[] = [];
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((db) => db.close()));
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  return {
    async fresh(pools = 1) {
      lastUrl = await cluster.createMigratedDatabase();
      for (let i = 0; i < pools; i++) open.push(await openPostgres(lastUrl));
      return open.slice(-pools);
    },
    url: () => lastUrl,
  };
}
