import { beforeEach, describe, expect, it } from 'vitest';
import { Authenticator, KNOWN_TOKENS_LIMIT, TOKEN_MEMO_MS } from '../../server/auth/authenticate.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import type { Store } from '../../server/store/store.ts';
import { tempSqliteStore } from '../support/temp-store.ts';

/**
 * The authenticator remembers tokens it has seen (their hash and what the store
 * said of them) so that a client's requests skip the SHA-256: what it remembers
 * must never outlive a revocation or an expiry, nor grow without bound.
 */
const temp = tempSqliteStore('shelf-token-memo-');
let store: Store;
let auth: Authenticator;
beforeEach(() => {
  store = temp.store();
  auth = new Authenticator(store.accounts);
});

const T0 = 1_800_000_000_000;

async function newToken(expiresAt: number | null = null) {
  const user = await store.accounts.createUser({ name: 'Memo', email: `memo-${Math.random()}@example.com`, plan: 'pro' }, T0);
  return issueToken(store.accounts, { userId: user.id, name: 'memo', scopes: ['bookmarks:read'], expiresAt }, T0);
}

/** What a request at `now` hears, with the store's version read as the gatekeeper reads it. */
const check = async (token: string, now: number) => auth.authenticate(`Bearer ${token}`, now, await store.version());
const codeOf = (outcome: Awaited<ReturnType<typeof check>>) => (outcome.ok ? 'ok' : outcome.code);

describe('the remembered tokens', () => {
  it('refuses a revoked token on the very next request, though it was just remembered', async () => {
    const { token, record } = await newToken();
    expect(codeOf(await check(token, T0))).toBe('ok');
    expect(codeOf(await check(token, T0 + 1))).toBe('ok');
    await store.accounts.revokeToken(record.id, T0 + 2);
    expect(codeOf(await check(token, T0 + 3))).toBe('TOKEN_REVOKED');
  });

  it('refuses a token at its expiry instant, with nothing written meanwhile', async () => {
    const { token } = await newToken(T0 + 30_000);
    expect(codeOf(await check(token, T0))).toBe('ok');
    const version = await store.version();
    expect(codeOf(await auth.authenticate(`Bearer ${token}`, T0 + 29_999, version))).toBe('ok');
    expect(codeOf(await auth.authenticate(`Bearer ${token}`, T0 + 30_000, version))).toBe('TOKEN_EXPIRED');
  });

  it('keeps at most its limit of tokens, and drops those past their time', async () => {
    const version = await store.version();
    const unknown = (i: number) => `tok_${i.toString(16).padStart(64, '0')}`;
    for (let i = 0; i < KNOWN_TOKENS_LIMIT + 5; i++) {
      expect(codeOf(await auth.authenticate(`Bearer ${unknown(i)}`, T0, version))).toBe('INVALID_TOKEN');
      expect(auth.knownTokens).toBeLessThanOrEqual(KNOWN_TOKENS_LIMIT);
    }
    expect(auth.knownTokens).toBeGreaterThan(0);
    await auth.authenticate(`Bearer ${unknown(-1 >>> 0)}`, T0 + TOKEN_MEMO_MS, version);
    expect(auth.knownTokens).toBe(1);
  });
});
