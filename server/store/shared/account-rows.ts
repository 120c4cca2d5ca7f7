import { z } from 'zod';
import { Plan } from '../../../lib/api/auth.ts';
import { Scope } from '../../../lib/api/scopes.ts';
import { ApiError } from '../../http/api-error.ts';
import type { TokenRecord, UserRecord } from '../accounts.ts';

/** The users and tokens tables' rows as both backends read them, and what they mean. */

export type UserRow = {
  id: string;
  name: string;
  email: string;
  plan: string;
  status: string;
  created_at: number;
};

export type TokenRow = {
  id: string;
  user_id: string;
  name: string;
  scopes: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
};

/** A token row joined with its user's columns (u_*). */
export type TokenWithUserRow = TokenRow & { u_name: string; u_email: string; u_plan: string; u_status: string; u_created_at: number };

export const TOKEN_WITH_USER = `SELECT t.*, u.name AS u_name, u.email AS u_email, u.plan AS u_plan, u.status AS u_status, u.created_at AS u_created_at
  FROM tokens t JOIN users u ON u.id = t.user_id`;

const storedScopes = z.array(Scope);

export const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  plan: Plan.parse(r.plan),
  status: r.status,
  createdAt: r.created_at,
});

export const toToken = (r: TokenRow): TokenRecord => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  scopes: storedScopes.parse(JSON.parse(r.scopes)),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

export const toTokenWithUser = (row: TokenWithUserRow): { token: TokenRecord; user: UserRecord } => ({
  token: toToken(row),
  user: toUser({ id: row.user_id, name: row.u_name, email: row.u_email, plan: row.u_plan, status: row.u_status, created_at: row.u_created_at }),
});

export const tooManyTokens = (maxActive: number): ApiError =>
  new ApiError('CONFLICT', `the user already has ${maxActive} active tokens; revoke one first`);
