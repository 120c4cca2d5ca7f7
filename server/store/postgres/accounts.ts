import type { Plan } from '../../../lib/api/auth.ts';
import type { Pg } from '../../db/postgres/pg.ts';
import { newId } from '../../ids.ts';
import type { AccountsStore, NewToken, TokenRecord, UserRecord } from '../accounts.ts';
import { TOKEN_WITH_USER, type TokenRow, type TokenWithUserRow, type UserRow, toToken, toTokenWithUser, toUser, tooManyTokens } from '../shared/account-rows.ts';

export class PgAccounts implements AccountsStore {
  constructor(private db: Pg) {}

  async createUser(input: { name: string; email: string; plan: Plan }, now: number): Promise<UserRecord> {
    const row = await this.db.get<UserRow>(
      'INSERT INTO users (id, name, email, plan, status, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [newId('usr'), input.name, input.email, input.plan, 'active', now],
    );
    return toUser(row!);
  }

  async getUser(id: string): Promise<UserRecord | null> {
    const row = await this.db.get<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
    return row ? toUser(row) : null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return (await this.db.all<UserRow>('SELECT * FROM users ORDER BY created_at, id')).map(toUser);
  }

  async setPlan(userId: string, plan: Plan): Promise<UserRecord | null> {
    const row = await this.db.get<UserRow>('UPDATE users SET plan = $1 WHERE id = $2 RETURNING *', [plan, userId]);
    return row ? toUser(row) : null;
  }

  async countUsers(): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM users'))!.n;
  }

  /** Under the user's lock: of two instances creating the user's last allowed token at once, the second is refused. */
  async createToken(input: NewToken, maxActive: number, now: number): Promise<TokenRecord> {
    const row = await this.db.transaction(
      async (tx) => {
        const active = await tx.get<{ n: number }>(
          'SELECT COUNT(*) AS n FROM tokens WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)',
          [input.userId, now],
        );
        if (active!.n >= maxActive) throw tooManyTokens(maxActive);
        return tx.get<TokenRow>(
          `INSERT INTO tokens (id, user_id, name, hash, scopes, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
          [newId('tkn'), input.userId, input.name, input.hash, JSON.stringify(input.scopes), now, input.expiresAt],
        );
      },
      { lock: `user:${input.userId}` },
    );
    return toToken(row!);
  }

  async findTokenByHash(hash: string): Promise<{ token: TokenRecord; user: UserRecord } | null> {
    const row = await this.db.get<TokenWithUserRow>(`${TOKEN_WITH_USER} WHERE t.hash = $1`, [hash]);
    return row ? toTokenWithUser(row) : null;
  }

  async revokeToken(id: string, now: number): Promise<TokenRecord | null> {
    const row = await this.db.get<TokenRow>('UPDATE tokens SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING *', [now, id]);
    return row ? toToken(row) : null;
  }

  async listTokens(userId: string): Promise<TokenRecord[]> {
    return (await this.db.all<TokenRow>('SELECT * FROM tokens WHERE user_id = $1 ORDER BY created_at, id', [userId])).map(toToken);
  }

  async touchToken(id: string, now: number): Promise<void> {
    await this.db.run('UPDATE tokens SET last_used_at = $1 WHERE id = $2', [now, id]);
  }
}
