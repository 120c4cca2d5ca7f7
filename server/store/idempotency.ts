export type IdempotencyBegin =
  | { state: 'new' }
  | { state: 'replay'; status: number; body: string }
  | { state: 'mismatch' }
  | { state: 'in-flight' };

/** Remembers the first answer to a POST carrying an Idempotency-Key, per user, for a while. */
export interface IdempotencyStore {
  /** Claims the key, or says what was answered to it (or that it is still being answered). */
  begin(userId: string, key: string, fingerprint: string, now: number, ttlMs: number): Promise<IdempotencyBegin>;
  complete(userId: string, key: string, status: number, body: string): Promise<void>;
  /** Forgets a claim whose request failed, so that a retry runs again. */
  release(userId: string, key: string): Promise<void>;
  purgeOlderThan(cutoff: number): Promise<number>;
}
