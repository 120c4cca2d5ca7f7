import type { ServerDeps } from '../deps.ts';
import type { Router } from '../http/router.ts';
import { authRoutes } from './auth.ts';
import { bookmarkRoutes } from './bookmarks.ts';
import { bulkRoutes } from './bulk.ts';
import { collectionRoutes } from './collections.ts';
import { coverRoutes } from './covers.ts';
import { jobRoutes } from './jobs.ts';
import { smartFolderRoutes } from './smart-folders.ts';
import { tagRoutes } from './tags.ts';

/** Every /v1 route module, in one list. */
export function registerRoutes(router: Router, deps: ServerDeps): void {
  authRoutes(router, deps);
  bulkRoutes(router, deps); // before bookmarkRoutes: /bookmarks/:id/move would match /bookmarks/bulk/move
  bookmarkRoutes(router, deps);
  coverRoutes(router, deps);
  smartFolderRoutes(router, deps);
  collectionRoutes(router, deps);
  tagRoutes(router, deps);
  jobRoutes(router, deps);
}
