import type { Pg } from '../../db/postgres/pg.ts';
import type { IdempotencyBegin, IdempotencyStore } from '../idempotency.ts';
import { ABANDONED_AFTER_MS, type ClaimRow, earlierClaim } from '../shared/idempotency-claims.ts';

/**
 * How often begin tries again when the claim it lost to vanished before it could be read (its
 * request failed and released it); past that the key is busy, and "still being processed, retry
 * shortly" is the truth.
 */
const CLAIM_ATTEMPTS = 5;

export class PgIdempotency implements IdempotencyStore {
  constructor(private db: Pg) {}

  /**
   * One statement claims the key, or leaves the claim in force alone: of two instances
   * claiming the same key at once, the insert of one wins and the other's conflicts,
   * finds the winner's claim in force, and reads it.
   */
  async begin(userId: string, key: string, fingerprint: string, now: number, ttlMs: number): Promise<IdempotencyBegin> {
    for (let attempt = 1; ; attempt++) {
      const claimed = await this.db.run(
        `INSERT INTO idempotency_keys AS k (user_id, key, fingerprint, status, body, created_at) VALUES ($1, $2, $3, NULL, NULL, $4)
         ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = NULL, body = NULL, created_at = excluded.created_at
         WHERE k.created_at <= $5 OR (k.status IS NULL AND k.created_at <= $6)`,
        [userId, key, fingerprint, now, now - ttlMs, now - ABANDONED_AFTER_MS],
      );
      if (claimed > 0) return { state: 'new' };
      const row = await this.db.get<ClaimRow>('SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE user_id = $1 AND key = $2', [
        userId,
        key,
      ]);
      const earlier = earlierClaim(row, fingerprint, now, ttlMs);
      if (earlier) return earlier;
      if (attempt === CLAIM_ATTEMPTS) return { state: 'in-flight' };
    }
  }

  async complete(userId: string, key: string, status: number, body: string): Promise<void> {
    await this.db.run('UPDATE idempotency_keys SET status = $1, body = $2 WHERE user_id = $3 AND key = $4', [status, body, userId, key]);
  }

  async release(userId: string, key: string): Promise<void> {
    await this.db.run('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status IS NULL', [userId, key]);
  }

  async purgeOlderThan(cutoff: number): Promise<number> {
    return this.db.run('DELETE FROM idempotency_keys WHERE created_at <= $1', [cutoff]);
  }
}
