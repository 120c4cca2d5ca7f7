import { TOKEN_PATTERN } from '../../lib/api/auth.ts';
import type { ErrorCode } from '../../lib/api/errors.ts';
import type { AuthContext } from '../http/env.ts';
import type { AccountsStore } from '../store/accounts.ts';
import { hashToken } from './tokens.ts';

export type AuthOutcome = { ok: true; auth: AuthContext } | { ok: false; code: ErrorCode; message: string };

const failed = (code: ErrorCode, message: string): AuthOutcome => ({ ok: false, code, message });

const TOUCH_INTERVAL_MS = 60_000;

/** Reads the Authorization header and says who is calling, or which auth error applies. */
type Found = Awaited<ReturnType<AccountsStore['findTokenByHash']>>;

const CACHE_LIMIT = 10_000;

export class Authenticator {
  private lastTouched = new Map<string, number>();
  /** Look-ups filed under the store version they were made at: a revocation or plan change (any write) retires them. */
  private found = new Map<string, { version: string; found: Found }>();

  constructor(private accounts: AccountsStore) {}

  /** `dataVersion`: the store's version as this request found it (see Store.version). */
  async authenticate(header: string | undefined, now: number, dataVersion: string): Promise<AuthOutcome> {
    const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match) return failed('MISSING_TOKEN', 'Send an API token as "Authorization: Bearer tok_..."');
    const token = match[1]!;
    if (!TOKEN_PATTERN.test(token)) return failed('INVALID_TOKEN', 'The API token is not valid');

    // Hashed on every request rather than memoised, so that no token is kept in clear in memory.
    const hash = hashToken(token);
    const cached = this.found.get(hash);
    const found = cached?.version === dataVersion ? cached.found : await this.lookup(hash, dataVersion);
    if (!found) return failed('INVALID_TOKEN', 'The API token is not valid');
    const { token: record, user } = found;
    if (record.revokedAt !== null) return failed('TOKEN_REVOKED', 'The API token has been revoked');
    if (record.expiresAt !== null && record.expiresAt <= now) return failed('TOKEN_EXPIRED', 'The API token has expired');

    if (this.dueForTouch(record.id, now)) await this.accounts.touchToken(record.id, now);
    return {
      ok: true,
      auth: { userId: user.id, tokenId: record.id, scopes: record.scopes, plan: user.plan, expiresAt: record.expiresAt },
    };
  }

  private async lookup(hash: string, version: string): Promise<Found> {
    const found = await this.accounts.findTokenByHash(hash);
    if (this.found.size >= CACHE_LIMIT) this.found.clear();
    this.found.set(hash, { version, found });
    return found;
  }

  /** lastUsedAt is kept to the minute: a write on every request would cost more than it tells. */
  private dueForTouch(tokenId: string, now: number): boolean {
    const last = this.lastTouched.get(tokenId);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return false;
    this.lastTouched.set(tokenId, now);
    return true;
  }
}
