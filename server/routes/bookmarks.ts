import { endpoints } from '../../lib/api/endpoints.ts';
import { saveBookmark } from '../bookmarks/save.ts';
import { DAY } from '../clock.ts';
import type { ServerDeps } from '../deps.ts';
import { type Router, withStatus } from '../http/router.ts';

/** Trashed bookmarks are restorable within 30 days, then purged. */
export const TRASH_RETENTION_MS = 30 * DAY;

/** Bookmarks, their lifecycle and their tags. Static paths go before /bookmarks/:id, which would match them too. */
export function bookmarkRoutes(r: Router, deps: ServerDeps): void {
  const { clock } = deps;
  const bookmarks = deps.store.bookmarks;
  deps.maintenance.add('purge-trash', (now) => bookmarks.purgeTrashedBefore(now - TRASH_RETENTION_MS));

  r.add(endpoints.listBookmarks, ({ auth, query }) => bookmarks.list(auth.userId, query));
  r.add(endpoints.searchBookmarks, ({ auth, query }) => bookmarks.search(auth.userId, query.q, query.limit));
  r.add(endpoints.domains, ({ auth }) => bookmarks.domains(auth.userId));
  r.add(endpoints.stats, ({ auth }) => bookmarks.stats(auth.userId));
  r.add(endpoints.linkStatuses, ({ auth }) => deps.store.linkChecks.counts(auth.userId));
  r.add(endpoints.duplicates, ({ auth }) => bookmarks.duplicates(auth.userId));
  r.add(endpoints.listTrash, ({ auth, query }) => bookmarks.listTrash(auth.userId, query));
  r.add(endpoints.emptyTrash, async ({ auth }) => ({ deleted: await bookmarks.emptyTrash(auth.userId) }));

  r.add(endpoints.createBookmark, async ({ auth, body }) => {
    const { bookmark, created } = await saveBookmark(deps, auth.userId, body);
    return created ? bookmark : withStatus(200, bookmark);
  });
  r.add(endpoints.getBookmark, ({ auth, params }) => bookmarks.get(auth.userId, params.id));
  r.add(endpoints.updateBookmark, ({ auth, params, body }) => bookmarks.update(auth.userId, params.id, body, clock.now()));
  r.add(endpoints.trashBookmark, ({ auth, params }) => bookmarks.trash(auth.userId, params.id, clock.now()));
  r.add(endpoints.restoreBookmark, ({ auth, params }) => bookmarks.restore(auth.userId, params.id, clock.now()));
  r.add(endpoints.deleteBookmark, async ({ auth, params }) => {
    await bookmarks.deletePermanently(auth.userId, params.id);
    return { id: params.id, deleted: true as const };
  });
  r.add(endpoints.favoriteBookmark, ({ auth, params, body }) =>
    bookmarks.setFavorite(auth.userId, params.id, body.isFavorite, clock.now()),
  );
  r.add(endpoints.moveBookmark, ({ auth, params, body }) => bookmarks.move(auth.userId, params.id, body.collectionId, clock.now()));

  r.add(endpoints.bookmarkTags, ({ auth, params }) => bookmarks.tagsOf(auth.userId, params.id));
  r.add(endpoints.addBookmarkTag, ({ auth, params, body }) => bookmarks.addTag(auth.userId, params.id, body.name, clock.now()));
  r.add(endpoints.removeBookmarkTag, ({ auth, params }) =>
    bookmarks.removeTag(auth.userId, params.id, params.tagId, clock.now()),
  );
}
