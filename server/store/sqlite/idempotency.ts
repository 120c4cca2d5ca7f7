import type { Db } from '../../db/database.ts';
import type { IdempotencyBegin, IdempotencyStore } from '../idempotency.ts';
import { type ClaimRow, earlierClaim } from '../shared/idempotency-claims.ts';

export class SqliteIdempotency implements IdempotencyStore {
  constructor(private db: Db) {}

  /**
   * IMMEDIATE (as every transaction here, see openDatabase; said again because this one
   * depends on it): of two instances claiming the same key at once, the second waits for
   * the write lock and then reads the first one's claim.
   */
  async begin(userId: string, key: string, fingerprint: string, now: number, ttlMs: number): Promise<IdempotencyBegin> {
    const claim = this.db.transaction((): IdempotencyBegin => {
      const row = this.db
        .prepare<[string, string], ClaimRow>('SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?')
        .get(userId, key);
      const earlier = earlierClaim(row, fingerprint, now, ttlMs);
      if (earlier) return earlier;
      this.db
        .prepare(
          `INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, NULL, NULL, ?)
           ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = NULL, body = NULL, created_at = excluded.created_at`,
        )
        .run(userId, key, fingerprint, now);
      return { state: 'new' };
    });
    return claim.immediate();
  }

  async complete(userId: string, key: string, status: number, body: string): Promise<void> {
    this.db.prepare('UPDATE idempotency_keys SET status = ?, body = ? WHERE user_id = ? AND key = ?').run(status, body, userId, key);
  }

  async release(userId: string, key: string): Promise<void> {
    this.db.prepare('DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND status IS NULL').run(userId, key);
  }

  async purgeOlderThan(cutoff: number): Promise<number> {
    return this.db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?').run(cutoff).changes;
  }
}
