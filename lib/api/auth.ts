import * as z from 'zod/mini';
import { Id, IsoDate } from './common.ts';
import { Scope } from './scopes.ts';
import { lazySchema } from './lazy-schema.ts';

export const Plan = lazySchema(() => z.enum(['pro', 'free']));
export type Plan = z.infer<typeof Plan>;

export const VerifiedUser = lazySchema(() => z.object({
  userId: Id,
  name: z.string(),
  email: z.string(),
  plan: z.string(),
  status: z.string(),
}));
export type VerifiedUser = z.infer<typeof VerifiedUser>;

/** GET /auth/verify: the spec leaves the shape open; this says what the token may do. */
export const TokenCheck = lazySchema(() => z.object({
  valid: z.literal(true),
  userId: Id,
  tokenId: Id,
  scopes: z.array(Scope),
  expiresAt: z.nullable(IsoDate),
}));
export type TokenCheck = z.infer<typeof TokenCheck>;

export const TOKEN_PATTERN = /^tok_[0-9a-f]{64}$/;
