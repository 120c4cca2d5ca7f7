import type { IdempotencyBegin } from '../idempotency.ts';

export type ClaimRow = {
  fingerprint: string;
  status: number | null;
  body: string | null;
  created_at: number;
};

/** A claim whose request never finished (the process died) stops blocking retries after this long. */
export const ABANDONED_AFTER_MS = 2 * 60_000;

/** What an earlier claim of the key answers now; null when there is none in force (a new claim may replace it). */
export function earlierClaim(row: ClaimRow | undefined, fingerprint: string, now: number, ttlMs: number): IdempotencyBegin | null {
  if (!row || row.created_at <= now - ttlMs || (row.status === null && row.created_at <= now - ABANDONED_AFTER_MS)) return null;
  if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
  if (row.status === null || row.body === null) return { state: 'in-flight' };
  return { state: 'replay', status: row.status, body: row.body };
}
