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
  LinkStatusCount,
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
  CreateCollectionBody,
} from './collections.ts';
import { CollectionTrashResult, PatchCollectionBody, ShareBody, ShareState } from './collection-edits.ts';
import { Id, SuccessResult } from './common.ts';
import { CoverSaved, SaveCoverBody, StoredFile, UploadReservation } from './covers.ts';
import { ExportParams, ImportReserved, Job, JobCreated, StartImportBody } from './jobs.ts';
import type { ErrorCode } from './error-codes.ts';
import type { Scope } from './scopes.ts';
import { CreateSmartFolderBody, EvaluateQuery, Evaluation, PatchSmartFolderBody, SmartFolder } from './smart-folders.ts';
import {
  AddBookmarkTagBody,
  Tag,
  TagBookmarks,
  TagBookmarksQuery,
} from './tags.ts';
import { CreateTagBody, MergeResult, MergeTagsBody, RenameTagBody, TagDeletedResult } from './tag-edits.ts';
import { lazySchema } from './lazy-schema.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One endpoint of the API: the server registers its route from this, the
 * client builds its typed calls from it, and the HTTP reference (OpenAPI and
 * docs/http-api.md) is generated from it. `scope: 'token'` means any valid
 * token. `response: null` marks a streamed, non-JSON answer.
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
  /** A create that finds its resource already there answers this instead of `status`. */
  existingStatus?: 200;
  /** One line for the reference. */
  summary: string;
  /**
   * The codes of this endpoint's own work; the request pipeline's codes
   * (authentication, limits, validation, body, idempotency) are added by pipelineErrors.
   */
  errors: readonly ErrorCode[];
}

const noParams = lazySchema(() => z.object({}));
const idParams = lazySchema(() => z.object({ id: Id }));
const noQuery = lazySchema(() => z.object({}));
const noBody = lazySchema(() => z.optional(z.unknown()));

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
  e: {
    method: Method;
    path: Path;
    scope: Scope | 'token';
    heavy?: boolean;
    response: R;
    status?: 201;
    existingStatus?: 200;
    summary: string;
    errors: readonly ErrorCode[];
  } & {
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
  checkToken: endpoint({ summary: 'What the token may do: its user, token id, scopes and expiry', errors: [], method: 'GET', path: '/auth/verify', scope: 'token', response: TokenCheck }),
  verify: endpoint({ summary: "The token's user: name, email, plan and status", errors: [], method: 'POST', path: '/auth/verify', scope: 'token', response: VerifiedUser }),

  // Bookmarks (static paths before /bookmarks/:id)
  listBookmarks: endpoint({ summary: 'Active bookmarks, a page at a time (cursor paging)', errors: [], method: 'GET', path: '/bookmarks', scope: 'bookmarks:read', query: ListBookmarksQuery, response: BookmarkPage }),
  searchBookmarks: endpoint({ summary: 'Active bookmarks whose title, description or URL contains the text', errors: [], method: 'GET', path: '/bookmarks/search', scope: 'bookmarks:read', query: SearchQuery, response: z.array(Bookmark) }),
  domains: endpoint({ summary: 'Each domain of the active bookmarks, with how many bookmarks it has', errors: [], method: 'GET', path: '/bookmarks/domains', scope: 'bookmarks:read', response: z.array(DomainCount) }),
  stats: endpoint({ summary: 'Counts: total, favourites, unsorted, without tags, and per type', errors: [], method: 'GET', path: '/bookmarks/stats', scope: 'bookmarks:read', response: BookmarkStats }),
  linkStatuses: endpoint({ summary: 'How many active bookmarks have each link status', errors: [], method: 'GET', path: '/bookmarks/link-statuses', scope: 'bookmarks:read', response: z.array(LinkStatusCount) }),
  duplicates: endpoint({ summary: 'Groups of active bookmarks whose URLs are the same once normalised', errors: [], method: 'GET', path: '/bookmarks/duplicates', scope: 'bookmarks:read', heavy: true, response: DuplicatesResult }),
  listTrash: endpoint({ summary: 'Trashed bookmarks, most recently trashed first (cursor paging)', errors: [], method: 'GET', path: '/bookmarks/trash', scope: 'bookmarks:read', query: TrashQuery, response: TrashPage }),
  emptyTrash: endpoint({ summary: 'Permanently deletes every trashed bookmark', errors: [], method: 'DELETE', path: '/bookmarks/trash', scope: 'destructive', heavy: true, response: EmptyTrashResult }),
  bulkTrash: endpoint({ summary: 'Moves up to 50 bookmarks to the trash', errors: ['NOT_FOUND'], method: 'POST', path: '/bookmarks/bulk/trash', scope: 'bookmarks:write', body: BulkIdsBody, response: BulkResult }),
  bulkCheck: endpoint({ summary: "Puts up to 50 bookmarks' links first in the link checker's queue", errors: ['NOT_FOUND', 'CONFLICT'], method: 'POST', path: '/bookmarks/bulk/check', scope: 'bookmarks:write', body: BulkIdsBody, response: BulkResult }),
  bulkFavorite: endpoint({ summary: 'Sets or clears the favourite mark of up to 50 bookmarks', errors: ['NOT_FOUND', 'CONFLICT'], method: 'POST', path: '/bookmarks/bulk/favorite', scope: 'bookmarks:write', body: BulkFavoriteBody, response: BulkResult }),
  bulkMove: endpoint({ summary: 'Moves up to 50 bookmarks to a collection, or to Unsorted (null)', errors: ['NOT_FOUND', 'CONFLICT'], method: 'POST', path: '/bookmarks/bulk/move', scope: 'bookmarks:write', body: BulkMoveBody, response: BulkResult }),
  bulkTag: endpoint({ summary: 'Adds a tag, created when new, to up to 50 bookmarks', errors: ['NOT_FOUND', 'CONFLICT'], method: 'POST', path: '/bookmarks/bulk/tag', scope: 'tags:write', body: BulkTagBody, response: BulkTagResult }),
  bulkUntag: endpoint({ summary: 'Removes a tag from up to 50 bookmarks', errors: ['NOT_FOUND', 'CONFLICT'], method: 'DELETE', path: '/bookmarks/bulk/tag', scope: 'tags:write', body: BulkUntagBody, response: BulkResult }),
  getBookmark: endpoint({ summary: 'One bookmark, active or trashed', errors: ['NOT_FOUND'], method: 'GET', path: '/bookmarks/:id', scope: 'bookmarks:read', response: Bookmark }),
  createBookmark: endpoint({ summary: 'Saves a URL: creates a bookmark (201), or updates the one with that exact URL, restoring it from the trash if needed (200)', errors: ['NOT_FOUND', 'CONFLICT'], method: 'POST', path: '/bookmarks', scope: 'bookmarks:write', body: CreateBookmarkBody, response: Bookmark, status: 201, existingStatus: 200 }),
  updateBookmark: endpoint({ summary: "Changes any of the bookmark's writable fields", errors: ['NOT_FOUND', 'CONFLICT'], method: 'PATCH', path: '/bookmarks/:id', scope: 'bookmarks:write', body: PatchBookmarkBody, response: Bookmark }),
  trashBookmark: endpoint({ summary: 'Moves the bookmark to the trash (restorable for 30 days)', errors: ['NOT_FOUND'], method: 'DELETE', path: '/bookmarks/:id', scope: 'bookmarks:write', response: Bookmark }),
  restoreBookmark: endpoint({ summary: 'Brings the bookmark back from the trash', errors: ['NOT_FOUND'], method: 'POST', path: '/bookmarks/:id/restore', scope: 'bookmarks:write', response: Bookmark }),
  deleteBookmark: endpoint({ summary: 'Deletes the bookmark for good, active or trashed', errors: ['NOT_FOUND'], method: 'DELETE', path: '/bookmarks/:id/permanent', scope: 'destructive', response: DeletedResult }),
  favoriteBookmark: endpoint({ summary: 'Sets or clears the favourite mark', errors: ['NOT_FOUND', 'CONFLICT'], method: 'PUT', path: '/bookmarks/:id/favorite', scope: 'bookmarks:write', body: FavoriteBody, response: Bookmark }),
  moveBookmark: endpoint({ summary: 'Moves the bookmark to a collection, or to Unsorted (null)', errors: ['NOT_FOUND', 'CONFLICT'], method: 'POST', path: '/bookmarks/:id/move', scope: 'bookmarks:write', body: MoveBody, response: Bookmark }),

  // Covers
  coverUploadUrl: endpoint({ summary: 'Reserves a single-use cover upload URL, valid 15 minutes', errors: ['NOT_FOUND', 'TOO_MANY_PENDING_UPLOADS'], method: 'POST', path: '/bookmarks/:id/cover/upload-url', scope: 'bookmarks:write', response: UploadReservation, status: 201 }),
  saveCover: endpoint({ summary: "Makes the uploaded file the bookmark's cover, replacing any previous one", errors: ['NOT_FOUND', 'RESERVATION_INVALID', 'FILE_TOO_LARGE', 'INVALID_FILE_TYPE', 'STORAGE_LIMIT_REACHED'], method: 'POST', path: '/bookmarks/:id/cover', scope: 'bookmarks:write', body: SaveCoverBody, response: CoverSaved }),
  deleteCover: endpoint({ summary: "Removes the bookmark's cover and frees its storage", errors: ['NOT_FOUND'], method: 'DELETE', path: '/bookmarks/:id/cover', scope: 'bookmarks:write', response: SuccessResult }),

  // Tags on one bookmark
  bookmarkTags: endpoint({ summary: "The bookmark's tags", errors: ['NOT_FOUND'], method: 'GET', path: '/bookmarks/:id/tags', scope: 'bookmarks:read', response: z.array(Tag) }),
  addBookmarkTag: endpoint({ summary: 'Adds a tag, created when new, to the bookmark', errors: ['NOT_FOUND', 'CONFLICT'], method: 'POST', path: '/bookmarks/:id/tags', scope: 'tags:write', body: AddBookmarkTagBody, response: z.array(Tag), status: 201 }),
  removeBookmarkTag: endpoint({
    summary: 'Removes a tag from the bookmark', errors: ['NOT_FOUND', 'CONFLICT'],
    method: 'DELETE',
    path: '/bookmarks/:id/tags/:tagId',
    scope: 'tags:write',
    params: z.object({ id: Id, tagId: Id }),
    response: z.array(Tag),
  }),

  // Collections
  listCollections: endpoint({ summary: 'Every active collection, as a flat list (build the tree with parentId)', errors: [], method: 'GET', path: '/collections', scope: 'collections:read', response: z.array(Collection) }),
  trashedCollections: endpoint({ summary: 'Collections in the trash', errors: [], method: 'GET', path: '/collections/trashed', scope: 'collections:read', response: z.array(Collection) }),
  getCollection: endpoint({ summary: 'One collection', errors: ['NOT_FOUND'], method: 'GET', path: '/collections/:id', scope: 'collections:read', response: Collection }),
  createCollection: endpoint({ summary: 'Creates a collection, at the root or under a parent', errors: ['NOT_FOUND'], method: 'POST', path: '/collections', scope: 'collections:write', body: CreateCollectionBody, response: Collection, status: 201 }),
  updateCollection: endpoint({ summary: 'Renames, restyles or moves a collection', errors: ['NOT_FOUND', 'CONFLICT'], method: 'PATCH', path: '/collections/:id', scope: 'collections:write', body: PatchCollectionBody, response: Collection }),
  trashCollection: endpoint({ summary: 'Moves a collection, its children and their bookmarks to the trash (at most 1,000 rows)', errors: ['NOT_FOUND', 'CONFLICT', 'COLLECTION_TOO_LARGE'], method: 'DELETE', path: '/collections/:id', scope: 'collections:write', response: CollectionTrashResult }),
  restoreCollection: endpoint({ summary: 'Brings a trashed collection back with what went to the trash with it (at most 1,000 rows)', errors: ['NOT_FOUND', 'CONFLICT', 'COLLECTION_TOO_LARGE'], method: 'POST', path: '/collections/:id/restore', scope: 'collections:write', response: CollectionTrashResult }),
  collectionBookmarks: endpoint({
    summary: "The collection's active bookmarks (cursor paging)", errors: ['NOT_FOUND'],
    method: 'GET',
    path: '/collections/:id/bookmarks',
    scope: 'bookmarks:read',
    query: CollectionBookmarksQuery,
    response: CollectionBookmarksPage,
  }),
  getShare: endpoint({ summary: "Whether the collection is shared, and its public page's path", errors: ['NOT_FOUND'], method: 'GET', path: '/collections/:id/share', scope: 'collections:read', response: ShareState }),
  setShare: endpoint({ summary: 'Shares the collection on a public read-only page, or stops sharing it', errors: ['NOT_FOUND', 'CONFLICT'], method: 'PUT', path: '/collections/:id/share', scope: 'collections:write', body: ShareBody, response: ShareState }),

  // Tags
  listTags: endpoint({ summary: 'Every tag, with how many active bookmarks carry it', errors: [], method: 'GET', path: '/tags', scope: 'tags:read', response: z.array(Tag) }),
  createTag: endpoint({ summary: 'Creates a tag (a / in the name makes a hierarchy)', errors: ['CONFLICT'], method: 'POST', path: '/tags', scope: 'tags:write', body: CreateTagBody, response: Tag, status: 201 }),
  mergeTags: endpoint({ summary: "Gives the source tag's bookmarks the target tag, then deletes the source", errors: ['NOT_FOUND', 'CONFLICT'], method: 'POST', path: '/tags/merge', scope: 'tags:write', body: MergeTagsBody, response: MergeResult }),
  renameTag: endpoint({ summary: 'Renames a tag on every bookmark that carries it', errors: ['NOT_FOUND', 'CONFLICT'], method: 'PATCH', path: '/tags/:id', scope: 'tags:write', body: RenameTagBody, response: Tag }),
  deleteTag: endpoint({ summary: 'Deletes a tag and its links to bookmarks; the bookmarks stay', errors: ['NOT_FOUND'], method: 'DELETE', path: '/tags/:id', scope: 'tags:write', response: TagDeletedResult }),
  tagBookmarksById: endpoint({ summary: 'Bookmarks carrying the tag with this id (tag is null when there is none)', errors: [], method: 'GET', path: '/tags/by-id/:id/bookmarks', scope: 'bookmarks:read', query: TagBookmarksQuery, response: TagBookmarks }),
  tagBookmarksByName: endpoint({
    summary: 'Bookmarks carrying the tag with this name (tag is null when there is none)', errors: [],
    method: 'GET',
    path: '/tags/:name{.+}/bookmarks',
    scope: 'bookmarks:read',
    params: z.object({ name: z.string().check(z.minLength(1)) }),
    query: TagBookmarksQuery,
    response: TagBookmarks,
  }),

  // Smart folders
  listSmartFolders: endpoint({ summary: 'Every smart folder', errors: [], method: 'GET', path: '/smart-folders', scope: 'bookmarks:read', response: z.array(SmartFolder) }),
  getSmartFolder: endpoint({ summary: 'One smart folder with its rules', errors: ['NOT_FOUND'], method: 'GET', path: '/smart-folders/:id', scope: 'bookmarks:read', response: SmartFolder }),
  createSmartFolder: endpoint({ summary: 'Creates a smart folder from its rules', errors: [], method: 'POST', path: '/smart-folders', scope: 'bookmarks:write', body: CreateSmartFolderBody, response: SmartFolder, status: 201 }),
  updateSmartFolder: endpoint({ summary: "Changes a smart folder's name, icon, colour or rules", errors: ['NOT_FOUND'], method: 'PATCH', path: '/smart-folders/:id', scope: 'bookmarks:write', body: PatchSmartFolderBody, response: SmartFolder }),
  deleteSmartFolder: endpoint({ summary: "Deletes the smart folder's definition; no bookmark changes", errors: ['NOT_FOUND'], method: 'DELETE', path: '/smart-folders/:id', scope: 'bookmarks:write', response: SuccessResult }),
  evaluateSmartFolder: endpoint({
    summary: "The bookmarks that match the folder's rules, a page at a time", errors: ['NOT_FOUND', 'SMART_FOLDER_CURSOR_INVALID'],
    method: 'GET',
    path: '/smart-folders/:id/bookmarks',
    scope: 'bookmarks:read',
    heavy: true,
    query: EvaluateQuery,
    response: Evaluation,
  }),

  // Import and export jobs
  startExport: endpoint({ summary: 'Starts an export job of the whole library in the given format', errors: [], method: 'POST', path: '/export/:format', scope: 'export', heavy: true, params: ExportParams, response: JobCreated, status: 201 }),
  getJob: endpoint({ summary: 'An import or export job: status, progress and, when done, its result', errors: ['NOT_FOUND'], method: 'GET', path: '/jobs/:id', scope: 'token', response: Job }),
  downloadExport: endpoint({ summary: "Streams the completed export's file (not JSON-enveloped)", errors: ['NOT_FOUND', 'CONFLICT', 'JOB_NOT_READY'], method: 'POST', path: '/jobs/:id/download', scope: 'export', response: null }),
  reserveImport: endpoint({ summary: 'Creates a pending import job and a single-use upload URL for its file', errors: ['TOO_MANY_PENDING_UPLOADS'], method: 'POST', path: '/import/reserve', scope: 'import', heavy: true, response: ImportReserved, status: 201 }),
  startImport: endpoint({ summary: 'Starts the import of the uploaded file', errors: ['NOT_FOUND', 'CONFLICT', 'RESERVATION_INVALID'], method: 'POST', path: '/import/start', scope: 'import', heavy: true, body: StartImportBody, response: Job }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The codes the request pipeline may answer before, or around, the endpoint's own work. */
export function pipelineErrors(e: Endpoint): ErrorCode[] {
  const codes: ErrorCode[] = ['MISSING_TOKEN', 'INVALID_TOKEN', 'TOKEN_REVOKED', 'TOKEN_EXPIRED', 'RATE_LIMITED', 'API_ACCESS_PRO_REQUIRED'];
  if (e.scope !== 'token') codes.push('SCOPE_REQUIRED');
  const readsBody = e.method !== 'GET';
  if (readsBody || e.params !== noParams || e.query !== noQuery) codes.push('VALIDATION_ERROR');
  if (readsBody) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (e.method === 'POST' && e.response !== null) codes.push('IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE');
  codes.push('INTERNAL_ERROR', 'SERVICE_UNAVAILABLE');
  return codes;
}

/** A route that needs no token and whose success answer is not enveloped. */
export interface PublicRoute {
  method: Method;
  /** From the server's origin (these are not all under /v1). */
  path: string;
  summary: string;
  /** What a success answers: a JSON schema, or the media type of other content. */
  response: z.ZodMiniType | string;
  status?: 201;
  errors: readonly ErrorCode[];
}

/**
 * The routes beside the API: the storage service (an upload URL's secret token
 * and a cover's unguessable id are the credentials), shared collection pages
 * and this reference.
 */
export const publicRoutes = {
  openApi: {
    method: 'GET',
    path: '/v1/openapi.json',
    summary: 'This reference, as an OpenAPI 3.1 document',
    response: 'application/json',
    errors: ['RATE_LIMITED'],
  },
  upload: {
    method: 'POST',
    path: '/storage/uploads/:token',
    summary: 'Receives the bytes of a cover or an import file at the upload URL a reservation handed out',
    response: StoredFile,
    status: 201,
    errors: ['RESERVATION_INVALID', 'VALIDATION_ERROR', 'FILE_TOO_LARGE', 'STORAGE_LIMIT_REACHED', 'PAYLOAD_TOO_LARGE', 'RATE_LIMITED'],
  },
  coverFile: {
    method: 'GET',
    path: '/storage/files/:id',
    summary: "A bookmark's cover image (the coverImage URL)",
    response: 'image/*',
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
  },
  sharedPage: {
    method: 'GET',
    path: '/shared/:slug',
    summary:
      "A shared collection's public, read-only HTML page (the publicUrl of its share state); an unknown or unshared slug answers a 404 page, too many requests from one address a 429 page",
    response: 'text/html',
    errors: [],
  },
} as const satisfies Record<string, PublicRoute>;
