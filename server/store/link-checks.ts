import type { LinkStatus, LinkStatusCount } from '../../lib/api/bookmarks.ts';
import type { BulkChange } from './bookmarks.ts';

/** A bookmark whose link is due for a check. */
export interface DueLink {
  id: string;
  url: string;
}

/** What one check found. */
export interface LinkCheckResult {
  id: string;
  linkStatus: LinkStatus;
  httpStatusCode: number;
}

/** The user's checks so far on `day` (whole days since the epoch, on the server's clock). */
export interface CheckBudget {
  day: number;
  checks: number;
}

/**
 * The link checker's state (migrations 012-link-checks / 006-link-checks): which bookmarks are
 * due, which instance checks whose links (a lease, so that no user's links are checked twice at
 * once by two instances), and the checks made per user and day.
 */
export interface LinkChecksStore {
  /**
   * Up to `limit` users with an active bookmark last checked before `dueBefore` (or never), no
   * lease held by another instance at `at`, and fewer than `cap` checks on `day`.
   */
  candidates(dueBefore: number, at: number, day: number, cap: number, limit: number): Promise<string[]>;
  /** Takes the user's lease for `owner` until `until`; false when another instance holds it at `at`. */
  claim(userId: string, owner: string, until: number, at: number): Promise<boolean>;
  /** Extends the lease; false when `owner` no longer holds it. */
  renew(userId: string, owner: string, until: number): Promise<boolean>;
  release(userId: string, owner: string): Promise<void>;
  /** How many checks the user had on `day`. */
  checksOn(userId: string, day: number): Promise<number>;
  /** The user's active bookmarks due for a check, never checked first, then the longest unchecked. */
  due(userId: string, dueBefore: number, limit: number): Promise<DueLink[]>;
  /**
   * Writes the results (one transaction) while `owner` holds the user's lease, counting them on
   * `day`; answers how many were written (0 when the lease was lost). Trashed bookmarks are
   * written too: their status is true whether or not the user restores them.
   */
  record(userId: string, owner: string, results: readonly LinkCheckResult[], now: number, day: number): Promise<number>;
  /**
   * POST /bookmarks/bulk/check: the bookmarks' links become due first. All or nothing: an id the user
   * does not have is NOT_FOUND, a trashed bookmark a CONFLICT.
   */
  requestCheck(userId: string, ids: string[]): Promise<BulkChange>;
  /** GET /bookmarks/link-statuses. */
  counts(userId: string): Promise<LinkStatusCount[]>;
}
