import type { ServerConfig } from '../config.ts';
import { openSqliteStore } from './sqlite/index.ts';
import type { Store } from './store.ts';

/** The store the configuration names: PostgreSQL given a database URL, else SQLite in the data directory. */
export async function openStore(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<Store> {
  if (config.databaseUrl === null) return openSqliteStore(config.dataDir);
  // Loaded only then: a server on SQLite never loads the PostgreSQL driver.
  const { openPostgresStore } = await import('./postgres/index.ts');
  return openPostgresStore(config.databaseUrl);
}
