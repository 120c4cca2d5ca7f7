import * as z from 'zod/mini';
import { TokenCheck, VerifiedUser } from './auth.ts';
import {
  Bookmark,
  BookmarkPage,
  BookmarkStats,
  CreateBookmarkBody,
  DeletedResult,
  DomainCount,
  DuplicatesResult,
  EmptyTrashResult,
  FavoriteBody,
  ListBookmarksQuery,
  MoveBody,
  PatchBookmarkBody,
  SearchQuery,
  TrashPage,
  TrashQuery,
} from './bookmarks.ts';
import { BulkFavoriteBody, BulkIdsBody, BulkMoveBody, BulkResult, BulkTagBody, BulkTagResult, BulkUntagBody } from './bulk.ts';
import {
  Collection,
  CollectionBookmarksPage,
  CollectionBookmarksQuery,
  CollectionTrashResult,
  CreateCollectionBody,
  PatchCollectionBody,
  ShareBody,
  ShareState,
} from './collections.ts';
import { Id, SuccessResult } from './common.ts';
import { CoverSaved, SaveCoverBody, UploadReservation } from './covers.ts';
import { ExportParams, ImportReserved, Job, JobCreated, StartImportBody } from './jobs.ts';
import type { Scope } from './scopes.ts';
import { CreateSmartFolderBody, EvaluateQuery, Evaluation, PatchSmartFolderBody, SmartFolder } from './smart-folders.ts';
import {
  AddBookmarkTagBody,
  CreateTagBody,
  MergeResult,
  MergeTagsBody,
  RenameTagBody,
  Tag,
  TagBookmarks,
  TagBookmarksQuery,
  TagDeletedResult,
} from './tags.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One endpoint of the API: the server registers its route from this, and the
 * client builds its typed calls from it. `scope: 'token'` means any valid token.
 * `response: null` marks a streamed, non-JSON answer.
 */
export interface Endpoint<
  P extends z.ZodMiniType = z.ZodMiniType,
  Q extends z.ZodMiniType = z.ZodMiniType,
  B extends z.ZodMiniType = z.ZodMiniType,
  R extends z.ZodMiniType | null = z.ZodMiniType | null,
> {
  method: Method;
  path: string;
  scope: Scope | 'token';
  heavy?: boolean;
  params: P;
  query: Q;
  body: B;
  response: R;
  /** Success status when it is not 200. */
  status?: 201;
}

const noParams = z.object({});
const idParams = z.object({ id: Id });
const noQuery = z.object({});
const noBody = z.optional(z.unknown());

/** The params an endpoint names, or (P left unset: never) the default, { id } for a path with :id, so handlers see params.id typed. */
type ParamsOr<P, Path extends string> = [P] extends [never]
  ? Path extends `${string}:id${string}`
    ? typeof idParams
    : typeof noParams
  : P;

function endpoint<
  Path extends string,
  R extends z.ZodMiniType | null,
  P extends z.ZodMiniType = never,
  Q extends z.ZodMiniType = typeof noQuery,
  B extends z.ZodMiniType = typeof noBody,
>(
  e: { method: Method; path: Path; scope: Scope | 'token'; heavy?: boolean; response: R; status?: 201 } & {
    params?: P;
    query?: Q;
    body?: B;
  },
): Endpoint<ParamsOr<P, Path>, Q, B, R> {
  return {
    ...e,
    params: (e.params ?? (e.path.includes(':id') ? idParams : noParams)) as ParamsOr<P, Path>,
    query: (e.query ?? noQuery) as Q,
    body: (e.body ?? noBody) as B,
  };
}

export const endpoints = {
  // Authentication
  checkToken: endpoint({ method: 'GET', path: '/auth/verify', scope: 'token', response: TokenCheck }),
  verify: endpoint({ method: 'POST', path: '/auth/verify', scope: 'token', response: VerifiedUser }),

  // Bookmarks (static paths before /bookmarks/:id)
  listBookmarks: endpoint({ method: 'GET', path: '/bookmarks', scope: 'bookmarks:read', query: ListBookmarksQuery, response: BookmarkPage }),
  searchBookmarks: endpoint({ method: 'GET', path: '/bookmarks/search', scope: 'bookmarks:read', query: SearchQuery, response: z.array(Bookmark) }),
  domains: endpoint({ method: 'GET', path: '/bookmarks/domains', scope: 'bookmarks:read', response: z.array(DomainCount) }),
  stats: endpoint({ method: 'GET', path: '/bookmarks/stats', scope: 'bookmarks:read', response: BookmarkStats }),
  duplicates: endpoint({ method: 'GET', path: '/bookmarks/duplicates', scope: 'bookmarks:read', heavy: true, response: DuplicatesResult }),
  listTrash: endpoint({ method: 'GET', path: '/bookmarks/trash', scope: 'bookmarks:read', query: TrashQuery, response: TrashPage }),
  emptyTrash: endpoint({ method: 'DELETE', path: '/bookmarks/trash', scope: 'destructive', heavy: true, response: EmptyTrashResult }),
  bulkTrash: endpoint({ method: 'POST', path: '/bookmarks/bulk/trash', scope: 'bookmarks:write', body: BulkIdsBody, response: BulkResult }),
  bulkFavorite: endpoint({ method: 'POST', path: '/bookmarks/bulk/favorite', scope: 'bookmarks:write', body: BulkFavoriteBody, response: BulkResult }),
  bulkMove: endpoint({ method: 'POST', path: '/bookmarks/bulk/move', scope: 'bookmarks:write', body: BulkMoveBody, response: BulkResult }),
  bulkTag: endpoint({ method: 'POST', path: '/bookmarks/bulk/tag', scope: 'tags:write', body: BulkTagBody, response: BulkTagResult }),
  bulkUntag: endpoint({ method: 'DELETE', path: '/bookmarks/bulk/tag', scope: 'tags:write', body: BulkUntagBody, response: BulkResult }),
  getBookmark: endpoint({ method: 'GET', path: '/bookmarks/:id', scope: 'bookmarks:read', response: Bookmark }),
  createBookmark: endpoint({ method: 'POST', path: '/bookmarks', scope: 'bookmarks:write', body: CreateBookmarkBody, response: Bookmark, status: 201 }),
  updateBookmark: endpoint({ method: 'PATCH', path: '/bookmarks/:id', scope: 'bookmarks:write', body: PatchBookmarkBody, response: Bookmark }),
  trashBookmark: endpoint({ method: 'DELETE', path: '/bookmarks/:id', scope: 'bookmarks:write', response: Bookmark }),
  restoreBookmark: endpoint({ method: 'POST', path: '/bookmarks/:id/restore', scope: 'bookmarks:write', response: Bookmark }),
  deleteBookmark: endpoint({ method: 'DELETE', path: '/bookmarks/:id/permanent', scope: 'destructive', response: DeletedResult }),
  favoriteBookmark: endpoint({ method: 'PUT', path: '/bookmarks/:id/favorite', scope: 'bookmarks:write', body: FavoriteBody, response: Bookmark }),
  moveBookmark: endpoint({ method: 'POST', path: '/bookmarks/:id/move', scope: 'bookmarks:write', body: MoveBody, response: Bookmark }),

  // Covers
  coverUploadUrl: endpoint({ method: 'POST', path: '/bookmarks/:id/cover/upload-url', scope: 'bookmarks:write', response: UploadReservation, status: 201 }),
  saveCover: endpoint({ method: 'POST', path: '/bookmarks/:id/cover', scope: 'bookmarks:write', body: SaveCoverBody, response: CoverSaved }),
  deleteCover: endpoint({ method: 'DELETE', path: '/bookmarks/:id/cover', scope: 'bookmarks:write', response: SuccessResult }),

  // Tags on one bookmark
  bookmarkTags: endpoint({ method: 'GET', path: '/bookmarks/:id/tags', scope: 'bookmarks:read', response: z.array(Tag) }),
  addBookmarkTag: endpoint({ method: 'POST', path: '/bookmarks/:id/tags', scope: 'tags:write', body: AddBookmarkTagBody, response: z.array(Tag), status: 201 }),
  removeBookmarkTag: endpoint({
    method: 'DELETE',
    path: '/bookmarks/:id/tags/:tagId',
    scope: 'tags:write',
    params: z.object({ id: Id, tagId: Id }),
    response: z.array(Tag),
  }),

  // Collections
  listCollections: endpoint({ method: 'GET', path: '/collections', scope: 'collections:read', response: z.array(Collection) }),
  trashedCollections: endpoint({ method: 'GET', path: '/collections/trashed', scope: 'collections:read', response: z.array(Collection) }),
  getCollection: endpoint({ method: 'GET', path: '/collections/:id', scope: 'collections:read', response: Collection }),
  createCollection: endpoint({ method: 'POST', path: '/collections', scope: 'collections:write', body: CreateCollectionBody, response: Collection, status: 201 }),
  updateCollection: endpoint({ method: 'PATCH', path: '/collections/:id', scope: 'collections:write', body: PatchCollectionBody, response: Collection }),
  trashCollection: endpoint({ method: 'DELETE', path: '/collections/:id', scope: 'collections:write', response: CollectionTrashResult }),
  restoreCollection: endpoint({ method: 'POST', path: '/collections/:id/restore', scope: 'collections:write', response: CollectionTrashResult }),
  collectionBookmarks: endpoint({
    method: 'GET',
    path: '/collections/:id/bookmarks',
    scope: 'bookmarks:read',
    query: CollectionBookmarksQuery,
    response: CollectionBookmarksPage,
  }),
  getShare: endpoint({ method: 'GET', path: '/collections/:id/share', scope: 'collections:read', response: ShareState }),
  setShare: endpoint({ method: 'PUT', path: '/collections/:id/share', scope: 'collections:write', body: ShareBody, response: ShareState }),

  // Tags
  listTags: endpoint({ method: 'GET', path: '/tags', scope: 'tags:read', response: z.array(Tag) }),
  createTag: endpoint({ method: 'POST', path: '/tags', scope: 'tags:write', body: CreateTagBody, response: Tag, status: 201 }),
  mergeTags: endpoint({ method: 'POST', path: '/tags/merge', scope: 'tags:write', body: MergeTagsBody, response: MergeResult }),
  renameTag: endpoint({ method: 'PATCH', path: '/tags/:id', scope: 'tags:write', body: RenameTagBody, response: Tag }),
  deleteTag: endpoint({ method: 'DELETE', path: '/tags/:id', scope: 'tags:write', response: TagDeletedResult }),
  tagBookmarksById: endpoint({ method: 'GET', path: '/tags/by-id/:id/bookmarks', scope: 'bookmarks:read', query: TagBookmarksQuery, response: TagBookmarks }),
  tagBookmarksByName: endpoint({
    method: 'GET',
    path: '/tags/:name{.+}/bookmarks',
    scope: 'bookmarks:read',
    params: z.object({ name: z.string().check(z.minLength(1)) }),
    query: TagBookmarksQuery,
    response: TagBookmarks,
  }),

  // Smart folders
  listSmartFolders: endpoint({ method: 'GET', path: '/smart-folders', scope: 'bookmarks:read', response: z.array(SmartFolder) }),
  getSmartFolder: endpoint({ method: 'GET', path: '/smart-folders/:id', scope: 'bookmarks:read', response: SmartFolder }),
  createSmartFolder: endpoint({ method: 'POST', path: '/smart-folders', scope: 'bookmarks:write', body: CreateSmartFolderBody, response: SmartFolder, status: 201 }),
  updateSmartFolder: endpoint({ method: 'PATCH', path: '/smart-folders/:id', scope: 'bookmarks:write', body: PatchSmartFolderBody, response: SmartFolder }),
  deleteSmartFolder: endpoint({ method: 'DELETE', path: '/smart-folders/:id', scope: 'bookmarks:write', response: SuccessResult }),
  evaluateSmartFolder: endpoint({
    method: 'GET',
    path: '/smart-folders/:id/bookmarks',
    scope: 'bookmarks:read',
    heavy: true,
    query: EvaluateQuery,
    response: Evaluation,
  }),

  // Import and export jobs
  startExport: endpoint({ method: 'POST', path: '/export/:format', scope: 'export', heavy: true, params: ExportParams, response: JobCreated, status: 201 }),
  getJob: endpoint({ method: 'GET', path: '/jobs/:id', scope: 'token', response: Job }),
  downloadExport: endpoint({ method: 'POST', path: '/jobs/:id/download', scope: 'export', response: null }),
  reserveImport: endpoint({ method: 'POST', path: '/import/reserve', scope: 'import', heavy: true, response: ImportReserved, status: 201 }),
  startImport: endpoint({ method: 'POST', path: '/import/start', scope: 'import', heavy: true, body: StartImportBody, response: Job }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
