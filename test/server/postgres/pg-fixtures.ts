import { openPostgres } from '../../../server/db/postgres/connect.ts';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { newId } from '../../../server/ids.ts';
import type { TestPostgres } from '../../support/postgres.ts';

/** A fresh migrated database of the cluster. */
export const freshDb = async (cluster: TestPostgres): Promise<Pg> => openPostgres(await cluster.createMigratedDatabase(), { maxConnections: 4 });

/** A user row (the stores take a user id; accounts are another store's business). */
export async function addUser(db: Pg): Promise<string> {
  const id = newId('usr');
  await db.run("INSERT INTO users (id, name, email, plan, created_at) VALUES ($1, 'Test', $2, 'pro', 0)", [id, `${id}@example.test`]);
  return id;
}
