import { describe, expect, it } from 'vitest';
import { MINUTE } from '../../../server/clock.ts';
import { PgAccounts } from '../../../server/store/postgres/accounts.ts';
import { PgIdempotency } from '../../../server/store/postgres/idempotency.ts';
import { freshDatabases } from './fresh-database.ts';

const { fresh } = freshDatabases();
const TTL = 24 * 60 * MINUTE;

const store = async () => {
  const db = (await fresh())[0]!;
  const user = await new PgAccounts(db).createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 0);
  return { idem: new PgIdempotency(db), userId: user.id };
};

describe('PgIdempotency', () => {
  it('claims a key once, says it is in flight, then replays its answer; another request on it is a mismatch', async () => {
    const { idem, userId } = await store();
    expect(await idem.begin(userId, 'k', 'fp', 1000, TTL)).toEqual({ state: 'new' });
    expect(await idem.begin(userId, 'k', 'fp', 1001, TTL)).toEqual({ state: 'in-flight' });
    expect(await idem.begin(userId, 'k', 'other', 1001, TTL)).toEqual({ state: 'mismatch' });
    await idem.complete(userId, 'k', 201, '{"data":1}');
    expect(await idem.begin(userId, 'k', 'fp', 2000, TTL)).toEqual({ state: 'replay', status: 201, body: '{"data":1}' });
    expect(await idem.begin(userId, 'k', 'other', 2000, TTL)).toEqual({ state: 'mismatch' });
    // Keys are per user.
    expect(await idem.begin('usr_other', 'k', 'other', 2000, TTL)).toEqual({ state: 'new' });
  });

  it('release forgets an unanswered claim only', async () => {
    const { idem, userId } = await store();
    await idem.begin(userId, 'failed', 'fp', 0, TTL);
    await idem.release(userId, 'failed');
    expect(await idem.begin(userId, 'failed', 'fp2', 1, TTL)).toEqual({ state: 'new' });

    await idem.begin(userId, 'done', 'fp', 0, TTL);
    await idem.complete(userId, 'done', 200, 'body');
    await idem.release(userId, 'done');
    expect(await idem.begin(userId, 'done', 'fp', 1, TTL)).toEqual({ state: 'replay', status: 200, body: 'body' });
  });

  it('a key past its time, or a claim abandoned for two minutes, is claimed anew', async () => {
    const { idem, userId } = await store();
    await idem.begin(userId, 'answered', 'fp', 0, TTL);
    await idem.complete(userId, 'answered', 200, 'old');
    expect(await idem.begin(userId, 'answered', 'fp', TTL - 1, TTL)).toMatchObject({ state: 'replay' });
    expect(await idem.begin(userId, 'answered', 'new-fp', TTL, TTL)).toEqual({ state: 'new' });
    expect(await idem.begin(userId, 'answered', 'new-fp', TTL + 1, TTL)).toEqual({ state: 'in-flight' });

    await idem.begin(userId, 'abandoned', 'fp', 0, TTL);
    expect(await idem.begin(userId, 'abandoned', 'fp', 2 * MINUTE - 1, TTL)).toEqual({ state: 'in-flight' });
    expect(await idem.begin(userId, 'abandoned', 'other', 2 * MINUTE, TTL)).toEqual({ state: 'new' });
    expect(await idem.begin(userId, 'abandoned', 'fp', 2 * MINUTE, TTL)).toEqual({ state: 'mismatch' });
  });

  it('purges claims older than the cutoff and answers how many', async () => {
    const { idem, userId } = await store();
    await idem.begin(userId, 'a', 'fp', 100, TTL);
    await idem.begin(userId, 'b', 'fp', 200, TTL);
    await idem.begin(userId, 'c', 'fp', 300, TTL);
    expect(await idem.purgeOlderThan(200)).toBe(2);
    expect(await idem.purgeOlderThan(200)).toBe(0);
    expect(await idem.begin(userId, 'a', 'fp', 301, TTL)).toEqual({ state: 'new' });
    expect(await idem.begin(userId, 'c', 'fp', 301, TTL)).toEqual({ state: 'in-flight' });
  });

  it('of many claims of one key at once from two instances, exactly one wins', async () => {
    const [one, two] = await fresh(2);
    const userId = (await new PgAccounts(one!).createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 0)).id;
    const instances = [new PgIdempotency(one!), new PgIdempotency(two!)];
    for (let round = 0; round < 10; round++) {
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => instances[i % 2]!.begin(userId, `key${round}`, 'fp', 1000, TTL)));
      expect(claims.filter((c) => c.state === 'new')).toHaveLength(1);
      expect(claims.filter((c) => c.state === 'in-flight')).toHaveLength(7);
    }
    // A stale claim, too, is taken over by one of them only.
    const stale = await Promise.all(Array.from({ length: 8 }, (_, i) => instances[i % 2]!.begin(userId, 'key0', 'fp2', 1000 + TTL, TTL)));
    expect(stale.map((c) => c.state).sort()).toEqual(['in-flight', 'in-flight', 'in-flight', 'in-flight', 'in-flight', 'in-flight', 'in-flight', 'new']);
  });
});
