import type { HttpBindings } from '@hono/node-server';
import type { Scope } from '../../lib/api/scopes.ts';

export interface AuthContext {
  userId: string;
  tokenId: string;
  scopes: Scope[];
  plan: string;
  expiresAt: number | null;
}

/** Hono's per-request variables for the whole app, and what @hono/node-server passes (node's request and response). */
export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    requestId: string;
    clientIp: string;
    /** Response headers collected for this request (see addHeaders in respond.ts). */
    headers: Record<string, string>;
    /** The store's version when the request came in: read once, used by the auth and response caches. */
    dataVersion: string;
    auth: AuthContext;
  };
}
