import type { Scope } from '../../lib/api/scopes.ts';

export interface AuthContext {
  userId: string;
  tokenId: string;
  scopes: Scope[];
  plan: string;
  expiresAt: number | null;
}

/** Hono's per-request variables for the whole app. */
export interface AppEnv {
  Variables: {
    requestId: string;
    clientIp: string;
    auth: AuthContext;
  };
}
