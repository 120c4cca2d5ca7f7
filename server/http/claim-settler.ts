import { BackendUnavailable } from '../backend-unavailable.ts';
import { ABANDONED_AFTER_MS } from '../store/shared/idempotency-claims.ts';

/** How often a claim the database could not be told about is tried again. */
const RETRY_MS = 250;
/**
 * Well inside the 2 minutes after which the claim counts as abandoned: past that, a retry of
 * the request may have claimed the key anew, and this late word must not land on its claim.
 */
const GIVE_UP_MS = ABANDONED_AFTER_MS / 2;

interface Pending {
  settle: () => Promise<void>;
  until: number;
  /** The attempt under way: the retry timer and a new request with the key never send the word twice at once. */
  attempt?: Promise<void>;
}

/**
 * Tells the database how a request with an Idempotency-Key ended (its answer recorded, or its
 * claim let go) even when the database went away in the middle: that word is kept and sent
 * again until the database is back. Without it, a database restart left every claim of a
 * request it cut off held for 2 minutes, and each retry of that save answered
 * `409 IDEMPOTENCY_KEY_IN_USE` meanwhile.
 */
export class ClaimSettler {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;

  /** Settles the claim `slot` now, or later when the database cannot be reached; other errors are thrown. */
  async settle(slot: string, settle: () => Promise<void>): Promise<void> {
    try {
      await settle();
    } catch (err) {
      if (!(err instanceof BackendUnavailable)) throw err;
      this.pending.set(slot, { settle, until: Date.now() + GIVE_UP_MS });
      this.timer ??= setInterval(() => void this.retry(), RETRY_MS).unref();
    }
  }

  /**
   * A new request with the key of a claim still to be settled settles it first, so that it meets
   * the claim's end (a replay, or a claim it may take) rather than `409 IDEMPOTENCY_KEY_IN_USE`.
   * Throws BackendUnavailable while the database is still away.
   */
  async flush(slot: string): Promise<void> {
    const waiting = this.pending.get(slot);
    if (waiting === undefined) return;
    await this.attempt(slot, waiting);
    if (this.pending.has(slot)) throw new BackendUnavailable('PostgreSQL', 'an earlier request with this key is not settled yet');
  }

  private attempt(slot: string, waiting: Pending): Promise<void> {
    waiting.attempt ??= waiting
      .settle()
      .then(
        () => void this.pending.delete(slot),
        (err: unknown) => {
          if (err instanceof BackendUnavailable) return;
          console.error('settling an Idempotency-Key claim failed:', err);
          this.pending.delete(slot);
        },
      )
      .finally(() => (waiting.attempt = undefined));
    return waiting.attempt;
  }

  private async retry(): Promise<void> {
    for (const [slot, waiting] of [...this.pending]) {
      if (Date.now() > waiting.until) this.pending.delete(slot);
      else await this.attempt(slot, waiting);
      // The database is still away: the others wait for the next round.
      if (this.pending.has(slot)) break;
    }
    if (this.pending.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
