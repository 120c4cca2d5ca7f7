import { endpoints } from '../../lib/api/endpoints.ts';
import type { ServerDeps } from '../deps.ts';
import type { Router } from '../http/router.ts';
import { TRASH_RETENTION_MS } from './bookmarks.ts';

export function collectionRoutes(r: Router, { store, clock, maintenance }: ServerDeps): void {
  const collections = store.collections;

  // /collections/trashed before /collections/:id
  r.add(endpoints.listCollections, ({ auth }) => collections.listSerialized(auth.userId));
  r.add(endpoints.trashedCollections, ({ auth }) => collections.listTrashed(auth.userId));
  r.add(endpoints.getCollection, ({ auth, params }) => collections.get(auth.userId, params.id));
  r.add(endpoints.createCollection, ({ auth, body }) => collections.create(auth.userId, body, clock.now()));
  r.add(endpoints.updateCollection, ({ auth, params, body }) => collections.update(auth.userId, params.id, body, clock.now()));
  r.add(endpoints.trashCollection, ({ auth, params }) => collections.trash(auth.userId, params.id, clock.now()));
  r.add(endpoints.restoreCollection, ({ auth, params }) => collections.restore(auth.userId, params.id, clock.now()));
  r.add(endpoints.collectionBookmarks, ({ auth, params, query }) => collections.bookmarks(auth.userId, params.id, query));
  r.add(endpoints.getShare, ({ auth, params }) => collections.share(auth.userId, params.id));
  r.add(endpoints.setShare, ({ auth, params, body }) => collections.setShared(auth.userId, params.id, body.shared, clock.now()));

  // Collections keep the bookmarks' trash retention.
  maintenance.add('purge-collections', (now) => collections.purgeTrashedBefore(now - TRASH_RETENTION_MS));
}
