import { hash, randomBytes } from 'node:crypto';
import type { Scope } from '../../lib/api/scopes.ts';
import type { AccountsStore, TokenRecord } from '../store/accounts.ts';

export const MAX_ACTIVE_TOKENS = 10;

// The one-shot hash: it runs on every request, and a Hash object per call costs twice as much.
export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/** Creates a token and returns it in clear this one time; only its hash is stored. */
export async function issueToken(
  accounts: AccountsStore,
  input: { userId: string; name: string; scopes: Scope[]; expiresAt: number | null },
  now: number,
): Promise<{ record: TokenRecord; token: string }> {
  const token = `tok_${randomBytes(32).toString('hex')}`;
  const record = await accounts.createToken({ ...input, hash: hashToken(token) }, MAX_ACTIVE_TOKENS, now);
  return { record, token };
}
