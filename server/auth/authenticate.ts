import { TOKEN_PATTERN } from '../../lib/api/auth.ts';
import type { ErrorCode } from '../../lib/api/errors.ts';
import { type Awaitable, thenOrNow } from '../awaitable.ts';
import type { AuthContext } from '../http/env.ts';
import type { AccountsStore } from '../store/accounts.ts';
import { hashToken } from './tokens.ts';

export type AuthOutcome = { ok: true; auth: AuthContext } | { ok: false; code: ErrorCode; message: string };

const failed = (code: ErrorCode, message: string): AuthOutcome => ({ ok: false, code, message });

const TOUCH_INTERVAL_MS = 60_000;

type Found = Awaited<ReturnType<AccountsStore['findTokenByHash']>>;

/** A token seen lately: its hash, and its look-up filed under the store version it was made at. */
interface Known {
  hash: string;
  hashedAt: number;
  version: string;
  found: Found;
}

/** Tokens remembered at most: more is a flood of made-up tokens, and it starts over. */
export const KNOWN_TOKENS_LIMIT = 10_000;
/**
 * How long a token's hash is used before it is hashed again, and about how long a
 * token stays in memory in clear after its last look-up (see sweep): long enough
 * that a client's requests skip the SHA-256, short enough that a token seen once
 * does not stay in this process's memory.
 */
export const TOKEN_MEMO_MS = 60_000;

/** Whether `at` is less than TOKEN_MEMO_MS ago (a clock set back counts as out of time). */
const inTime = (at: number, now: number): boolean => now >= at && now - at < TOKEN_MEMO_MS;

/** Reads the Authorization header and says who is calling, or which auth error applies. */
export class Authenticator {
  private lastTouched = new Map<string, number>();
  /**
   * By the token itself, so that a request of a known token skips the hash. What was
   * found is used only at the store version it was read at: a revocation or plan
   * change (any write) retires it at once, and expiry is checked on every request.
   */
  private known = new Map<string, Known>();
  private sweptAt = 0;

  constructor(private accounts: AccountsStore) {}

  /** Tokens remembered now (for the tests of its bounds). */
  get knownTokens(): number {
    return this.known.size;
  }

  /**
   * `dataVersion`: the store's version as this request found it (see Store.version).
   * Answers at once for a token known at that version, unless its last use is due to be written.
   */
  authenticate(header: string | undefined, now: number, dataVersion: string): Awaitable<AuthOutcome> {
    const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match) return failed('MISSING_TOKEN', 'Send an API token as "Authorization: Bearer tok_..."');
    const token = match[1]!;
    let known = this.known.get(token); // only tokens of the right form are ever remembered
    if (known === undefined && !TOKEN_PATTERN.test(token)) return failed('INVALID_TOKEN', 'The API token is not valid');
    if (known !== undefined && !inTime(known.hashedAt, now)) known = undefined;
    if (known?.version === dataVersion) return this.admit(known.found, now);
    return thenOrNow(this.lookup(token, known, now, dataVersion), (found) => this.admit(found, now));
  }

  private admit(found: Found, now: number): Awaitable<AuthOutcome> {
    if (!found) return failed('INVALID_TOKEN', 'The API token is not valid');
    const { token: record, user } = found;
    if (record.revokedAt !== null) return failed('TOKEN_REVOKED', 'The API token has been revoked');
    if (record.expiresAt !== null && record.expiresAt <= now) return failed('TOKEN_EXPIRED', 'The API token has expired');

    const admitted: AuthOutcome = {
      ok: true,
      auth: { userId: user.id, tokenId: record.id, scopes: record.scopes, plan: user.plan, expiresAt: record.expiresAt },
    };
    return this.dueForTouch(record.id, now) ? this.accounts.touchToken(record.id, now).then(() => admitted) : admitted;
  }

  /** `known`: the token's entry still in its time, whose hash is reused; the look-up itself is always made. */
  private async lookup(token: string, known: Known | undefined, now: number, version: string): Promise<Found> {
    const hash = known?.hash ?? hashToken(token);
    const hashedAt = known?.hashedAt ?? now;
    const found = await this.accounts.findTokenByHash(hash);
    this.sweep(now);
    if (this.known.size >= KNOWN_TOKENS_LIMIT) this.known.clear();
    this.known.set(token, { hash, hashedAt, version, found });
    return found;
  }

  /** Drops the tokens past their time, at most once per TOKEN_MEMO_MS (on a look-up, which every new token and version makes). */
  private sweep(now: number): void {
    if (inTime(this.sweptAt, now)) return;
    this.sweptAt = now;
    for (const [token, { hashedAt }] of this.known) {
      if (!inTime(hashedAt, now)) this.known.delete(token);
    }
  }

  /** lastUsedAt is kept to the minute: a write on every request would cost more than it tells. */
  private dueForTouch(tokenId: string, now: number): boolean {
    const last = this.lastTouched.get(tokenId);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return false;
    this.lastTouched.set(tokenId, now);
    return true;
  }
}
