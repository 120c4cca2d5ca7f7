import { endpoints } from '../../lib/api/endpoints.ts';
import { conflict } from '../http/api-error.ts';
import type { ServerDeps } from '../deps.ts';
import type { Router } from '../http/router.ts';

/** Bulk operations on up to 50 bookmarks: all or nothing. Register before bookmarkRoutes (/bookmarks/:id/move matches bulk/move). */
export function bulkRoutes(r: Router, { store, clock, config, linkChecker }: ServerDeps): void {
  const bookmarks = store.bookmarks;
  r.add(endpoints.bulkCheck, async ({ auth, body }) => {
    if (!config.linkCheck.enabled) throw conflict('this server does not check links (it was started with link checking off)');
    const change = await store.linkChecks.requestCheck(auth.userId, body.ids);
    linkChecker.wake();
    return change;
  });
  r.add(endpoints.bulkTrash, ({ auth, body }) => bookmarks.bulkTrash(auth.userId, body.ids, clock.now()));
  r.add(endpoints.bulkFavorite, ({ auth, body }) => bookmarks.bulkFavorite(auth.userId, body.ids, body.isFavorite, clock.now()));
  r.add(endpoints.bulkMove, ({ auth, body }) => bookmarks.bulkMove(auth.userId, body.ids, body.collectionId, clock.now()));
  r.add(endpoints.bulkTag, ({ auth, body }) => bookmarks.bulkTag(auth.userId, body.ids, body.name, clock.now()));
  r.add(endpoints.bulkUntag, ({ auth, body }) => bookmarks.bulkUntag(auth.userId, body.ids, body.tagId, clock.now()));
}
