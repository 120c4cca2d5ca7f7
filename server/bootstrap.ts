import { ALL_SCOPES } from '../lib/api/scopes.ts';
import { issueToken } from './auth/tokens.ts';
import type { ServerDeps } from './deps.ts';

/** On a first start (no users yet): a local Pro user and a full-scope token, shown once. */
export async function bootstrapFirstUser({ store, clock }: ServerDeps): Promise<{ userId: string; token: string } | null> {
  if ((await store.accounts.countUsers()) > 0) return null;
  const user = await store.accounts.createUser({ name: 'Local user', email: 'local@localhost', plan: 'pro' }, clock.now());
  const { token } = await issueToken(
    store.accounts,
    { userId: user.id, name: 'first start', scopes: [...ALL_SCOPES], expiresAt: null },
    clock.now(),
  );
  return { userId: user.id, token };
}
