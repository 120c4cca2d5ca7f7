import type { ServerDeps } from '../deps.ts';
import type { Router } from '../http/router.ts';
import { authRoutes } from './auth.ts';

/** Every /v1 route module, in one list. */
export function registerRoutes(router: Router, deps: ServerDeps): void {
  authRoutes(router, deps);
}
