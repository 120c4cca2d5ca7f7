import { ALL_SCOPES } from '../lib/api/scopes.ts';
import { issueToken } from '../server/auth/tokens.ts';
import { openSqliteStore } from '../server/store/sqlite/index.ts';
import { type RawDb, openRawDb } from '../test/support/raw-db.ts';

/**
 * A new user in a data directory whose server is stopped, with an all-scopes token, and what
 * `seed` then writes for the user by SQL: a section's own account beside the bench library's.
 */
export async function seedNewUser<T>(
  dir: string,
  who: { name: string; email: string },
  seed: (db: RawDb, userId: string) => Promise<T>,
): Promise<T & { userId: string; token: string }> {
  const store = openSqliteStore(dir);
  try {
    const user = await store.accounts.createUser({ ...who, plan: 'pro' }, Date.now());
    const { token } = await issueToken(store.accounts, { userId: user.id, name: 'bench', scopes: [...ALL_SCOPES], expiresAt: null }, Date.now());
    const db = openRawDb({ dataDir: dir, databaseUrl: null });
    try {
      return { ...(await seed(db, user.id)), userId: user.id, token };
    } finally {
      await db.close();
    }
  } finally {
    await store.close();
  }
}
