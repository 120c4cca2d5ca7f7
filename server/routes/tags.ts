import { endpoints } from '../../lib/api/endpoints.ts';
import type { ServerDeps } from '../deps.ts';
import type { Router } from '../http/router.ts';

export function tagRoutes(r: Router, { store, clock }: ServerDeps): void {
  const tags = store.tags;

  r.add(endpoints.listTags, ({ auth }) => tags.list(auth.userId));
  r.add(endpoints.createTag, ({ auth, body }) => tags.create(auth.userId, body, clock.now()));
  r.add(endpoints.mergeTags, ({ auth, body }) => tags.merge(auth.userId, body.sourceTagId, body.targetTagId, clock.now()));
  r.add(endpoints.renameTag, ({ auth, params, body }) => tags.rename(auth.userId, params.id, body.newName, clock.now()));
  r.add(endpoints.deleteTag, ({ auth, params }) => tags.remove(auth.userId, params.id, clock.now()));
  // By id first: /tags/by-id/X/bookmarks also fits /tags/:name{.+}/bookmarks, and the first route registered answers.
  r.add(endpoints.tagBookmarksById, ({ auth, params, query }) => tags.bookmarksById(auth.userId, params.id, query.limit));
  r.add(endpoints.tagBookmarksByName, ({ auth, params, query }) => tags.bookmarksByName(auth.userId, params.name, query.limit));
}
