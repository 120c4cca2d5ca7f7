import type { Plan } from '../../lib/api/auth.ts';
import type { Scope } from '../../lib/api/scopes.ts';

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  plan: Plan;
  status: string;
  createdAt: number;
}

export interface TokenRecord {
  id: string;
  userId: string;
  name: string;
  scopes: Scope[];
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface NewToken {
  userId: string;
  name: string;
  scopes: Scope[];
  expiresAt: number | null;
  hash: string;
}

/** Users and API tokens: what the dashboard (our admin command) manages and every request checks. */
export interface AccountsStore {
  createUser(input: { name: string; email: string; plan: Plan }, now: number): Promise<UserRecord>;
  getUser(id: string): Promise<UserRecord | null>;
  /** Every user, oldest first. */
  listUsers(): Promise<UserRecord[]>;
  setPlan(userId: string, plan: Plan): Promise<UserRecord | null>;
  countUsers(): Promise<number>;
  /** Refuses (CONFLICT) when the user already has maxActive unrevoked, unexpired tokens. */
  createToken(input: NewToken, maxActive: number, now: number): Promise<TokenRecord>;
  findTokenByHash(hash: string): Promise<{ token: TokenRecord; user: UserRecord } | null>;
  revokeToken(id: string, now: number): Promise<TokenRecord | null>;
  listTokens(userId: string): Promise<TokenRecord[]>;
  touchToken(id: string, now: number): Promise<void>;
}
