import type { Plan } from '../../../lib/api/auth.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import type { AccountsStore, NewToken, TokenRecord, UserRecord } from '../accounts.ts';
import { TOKEN_WITH_USER, type TokenRow, type TokenWithUserRow, type UserRow, toToken, toTokenWithUser, toUser, tooManyTokens } from '../shared/account-rows.ts';

export class SqliteAccounts implements AccountsStore {
  private q;

  constructor(private db: Db) {
    this.q = {
      user: db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?'),
      token: db.prepare<[string], TokenRow>('SELECT * FROM tokens WHERE id = ?'),
      tokenByHash: db.prepare<[string], TokenWithUserRow>(`${TOKEN_WITH_USER} WHERE t.hash = ?`),
      activeCount: db.prepare<[string, number], { n: number }>(
        'SELECT COUNT(*) AS n FROM tokens WHERE user_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
      ),
      touch: db.prepare('UPDATE tokens SET last_used_at = ? WHERE id = ?'),
    };
  }

  async createUser(input: { name: string; email: string; plan: Plan }, now: number): Promise<UserRecord> {
    const id = newId('usr');
    this.db
      .prepare('INSERT INTO users (id, name, email, plan, status, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, input.name, input.email, input.plan, 'active', now);
    return toUser(this.q.user.get(id)!);
  }

  async getUser(id: string): Promise<UserRecord | null> {
    const row = this.q.user.get(id);
    return row ? toUser(row) : null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return this.db.prepare<[], UserRow>('SELECT * FROM users ORDER BY created_at, id').all().map(toUser);
  }

  async setPlan(userId: string, plan: Plan): Promise<UserRecord | null> {
    this.db.prepare('UPDATE users SET plan = ? WHERE id = ?').run(plan, userId);
    return this.getUser(userId);
  }

  async countUsers(): Promise<number> {
    return this.db.prepare('SELECT COUNT(*) FROM users').pluck().get() as number;
  }

  async createToken(input: NewToken, maxActive: number, now: number): Promise<TokenRecord> {
    const id = newId('tkn');
    this.db.transaction(() => {
      if (this.q.activeCount.get(input.userId, now)!.n >= maxActive) {
        throw tooManyTokens(maxActive);
      }
      this.db
        .prepare('INSERT INTO tokens (id, user_id, name, hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(id, input.userId, input.name, input.hash, JSON.stringify(input.scopes), now, input.expiresAt);
    })();
    return toToken(this.q.token.get(id)!);
  }

  async findTokenByHash(hash: string): Promise<{ token: TokenRecord; user: UserRecord } | null> {
    const row = this.q.tokenByHash.get(hash);
    return row ? toTokenWithUser(row) : null;
  }

  async revokeToken(id: string, now: number): Promise<TokenRecord | null> {
    this.db.prepare('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(now, id);
    const row = this.q.token.get(id);
    return row ? toToken(row) : null;
  }

  async listTokens(userId: string): Promise<TokenRecord[]> {
    return this.db.prepare<[string], TokenRow>('SELECT * FROM tokens WHERE user_id = ? ORDER BY created_at, id').all(userId).map(toToken);
  }

  async touchToken(id: string, now: number): Promise<void> {
    this.q.touch.run(now, id);
  }
}
