import { endpoints } from '../../lib/api/endpoints.ts';
import type { ServerDeps } from '../deps.ts';
import type { Router } from '../http/router.ts';
import { requestOrigin } from '../storage/urls.ts';

/** Bookmark covers: the upload reservation, the save and the removal; the bytes go through the storage service. */
export function coverRoutes(r: Router, { storage, maintenance, config }: ServerDeps): void {
  r.add(endpoints.coverUploadUrl, ({ auth, params, c }) => storage.reserveCover(auth.userId, params.id, requestOrigin(c, config.proxyHops)));

  r.add(endpoints.saveCover, ({ auth, params, body, c }) => storage.saveCover(auth.userId, params.id, body, requestOrigin(c, config.proxyHops)));

  r.add(endpoints.deleteCover, async ({ auth, params }) => {
    await storage.deleteCover(auth.userId, params.id);
    return { success: true };
  });

  maintenance.add('storage', (now) => storage.sweep(now));
}
