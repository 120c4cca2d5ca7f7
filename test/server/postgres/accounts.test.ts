import { describe, expect, it } from 'vitest';
import { PgAccounts } from '../../../server/store/postgres/accounts.ts';
import { freshDatabases } from './fresh-database.ts';

const { fresh } = freshDatabases();

const accounts = async () => new PgAccounts((await fresh())[0]!);
const token = (userId: string, hash: string, expiresAt: number | null = null) => ({ userId, name: `t ${hash}`, scopes: ['bookmarks:read' as const], expiresAt, hash });

describe('PgAccounts users', () => {
  it('creates, reads, lists oldest first, counts and moves users between plans', async () => {
    const a = await accounts();
    expect(await a.countUsers()).toBe(0);
    const later = await a.createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 2000);
    const earlier = await a.createUser({ name: 'Bob', email: 'bob@example.com', plan: 'free' }, 1000);
    expect(later).toEqual({ id: later.id, name: 'Ann', email: 'ann@example.com', plan: 'pro', status: 'active', createdAt: 2000 });
    expect(later.id).toMatch(/^usr_[0-9a-f]{20}$/);
    expect(await a.getUser(earlier.id)).toEqual(earlier);
    expect((await a.listUsers()).map((u) => u.name)).toEqual(['Bob', 'Ann']);
    expect(await a.countUsers()).toBe(2);

    expect(await a.setPlan(earlier.id, 'pro')).toEqual({ ...earlier, plan: 'pro' });
    expect((await a.getUser(earlier.id))!.plan).toBe('pro');
  });

  it('answers null for an unknown user, and refuses a plan the schema does not know', async () => {
    const a = await accounts();
    expect(await a.getUser('usr_missing')).toBeNull();
    expect(await a.setPlan('usr_missing', 'free')).toBeNull();
    const u = await a.createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 1);
    await expect(a.setPlan(u.id, 'gold' as 'pro')).rejects.toThrow(/check constraint/);
    expect((await a.getUser(u.id))!.plan).toBe('pro');
  });
});

describe('PgAccounts tokens', () => {
  it('creates, finds by hash with the user, lists, touches and revokes tokens', async () => {
    const a = await accounts();
    const u = await a.createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 1);
    const first = await a.createToken(token(u.id, 'h1', 9000), 10, 100);
    expect(first).toEqual({
      id: first.id,
      userId: u.id,
      name: 't h1',
      scopes: ['bookmarks:read'],
      createdAt: 100,
      expiresAt: 9000,
      revokedAt: null,
      lastUsedAt: null,
    });
    const second = await a.createToken(token(u.id, 'h2'), 10, 200);
    expect(await a.findTokenByHash('h2')).toEqual({ token: second, user: u });
    expect(await a.findTokenByHash('nope')).toBeNull();

    await a.touchToken(first.id, 150);
    expect((await a.listTokens(u.id)).map((t) => [t.id, t.lastUsedAt])).toEqual([
      [first.id, 150],
      [second.id, null],
    ]);

    expect((await a.revokeToken(first.id, 300))!.revokedAt).toBe(300);
    // Revoking again keeps the first revocation's time.
    expect((await a.revokeToken(first.id, 400))!.revokedAt).toBe(300);
    expect(await a.revokeToken('tkn_missing', 400)).toBeNull();
    expect(await a.listTokens('usr_missing')).toEqual([]);
  });

  it('refuses a token past the cap with CONFLICT, counting neither revoked nor expired ones, and changes nothing', async () => {
    const a = await accounts();
    const u = await a.createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 1);
    const revoked = await a.createToken(token(u.id, 'r'), 2, 10);
    await a.revokeToken(revoked.id, 11);
    await a.createToken(token(u.id, 'e', 50), 2, 10);
    await a.createToken(token(u.id, 'a'), 2, 10);
    // At 40 the expiring token still works: two active.
    await expect(a.createToken(token(u.id, 'x'), 2, 40)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'the user already has 2 active tokens; revoke one first',
    });
    expect(await a.findTokenByHash('x')).toBeNull();
    // At 50 it has expired: room for one.
    await a.createToken(token(u.id, 'x'), 2, 50);
    expect(await a.listTokens(u.id)).toHaveLength(4);
  });

  it('refuses a hash already in use', async () => {
    const a = await accounts();
    const u = await a.createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 1);
    await a.createToken(token(u.id, 'same'), 10, 1);
    await expect(a.createToken(token(u.id, 'same'), 10, 2)).rejects.toThrow(/duplicate key/);
    expect(await a.listTokens(u.id)).toHaveLength(1);
  });

  it('keeps the cap when two instances create the last allowed token at once', async () => {
    const [one, two] = await fresh(2);
    const [a, b] = [new PgAccounts(one!), new PgAccounts(two!)];
    const u = await a.createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 1);
    // Each round: the user has 2 × round tokens, makes one more, then four requests race for the last of 2 × round + 2.
    for (let round = 0; round < 5; round++) {
      await a.createToken(token(u.id, `base${round}`), 2 * round + 1, 1);
      const results = await Promise.allSettled([a, b, a, b].map((s, i) => s.createToken(token(u.id, `r${round}-${i}`), 2 * round + 2, 1)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['CONFLICT', 'CONFLICT', 'CONFLICT']);
      expect(await a.listTokens(u.id)).toHaveLength(2 * (round + 1));
    }
  });
});
