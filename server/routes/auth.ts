import { endpoints } from '../../lib/api/endpoints.ts';
import { iso } from '../clock.ts';
import { notFound } from '../http/api-error.ts';
import type { Router } from '../http/router.ts';
import type { ServerDeps } from '../deps.ts';

export function authRoutes(r: Router, { store }: ServerDeps): void {
  r.add(endpoints.checkToken, ({ auth }) => ({
    valid: true as const,
    userId: auth.userId,
    tokenId: auth.tokenId,
    scopes: auth.scopes,
    expiresAt: auth.expiresAt === null ? null : iso(auth.expiresAt),
  }));

  r.add(endpoints.verify, async ({ auth }) => {
    const user = await store.accounts.getUser(auth.userId);
    if (!user) throw notFound('user', auth.userId);
    return { userId: user.id, name: user.name, email: user.email, plan: user.plan, status: user.status };
  });
}
