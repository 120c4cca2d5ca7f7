import * as z from 'zod/mini';
import { MAX_TAG_NAME_LENGTH, TAG_NAME_CHECKS, normaliseTagName } from './tag-name.ts';
import { Cursor, Id, IsoDate, booleanParam, httpUrl, imageUrl, limitParam, text } from './common.ts';
import { lazySchema } from './lazy-schema.ts';

export const BookmarkType = lazySchema(() => z.enum(['link', 'article', 'image', 'video', 'document']));
export type BookmarkType = z.infer<typeof BookmarkType>;

/** metadataStatus: how the auto-detection of title and description went. */
export const MetadataStatus = lazySchema(() => z.enum(['complete', 'failed', 'skipped']));
/**
 * linkStatus: what the last fetch of the URL said about the link (docs/api-decisions.md, "Link check").
 * `redirected` and `error` come from the link checker only; a save-time fetch says `broken` for any failing status.
 */
export const LinkStatus = lazySchema(() => z.enum(['unchecked', 'ok', 'broken', 'redirected', 'error', 'unreachable']));
export type LinkStatus = z.infer<typeof LinkStatus>;

/** Query-string list of link statuses, comma-separated: `broken,redirected`. */
const linkStatusList = lazySchema(() => z.pipe(
  z.pipe(
    z.string().check(z.minLength(1), z.maxLength(100)),
    z.transform((raw: string) => [...new Set(raw.split(',').map((s) => s.trim()))]),
  ),
  z.array(LinkStatus),
));

export const Bookmark = lazySchema(() => z.object({
  id: Id,
  url: z.string(),
  title: z.string(),
  description: z.string(),
  excerpt: z.string(),
  note: z.string(),
  type: BookmarkType,
  isFavorite: z.boolean(),
  tags: z.array(z.string()),
  collectionId: z.nullable(z.string()),
  domain: z.string(),
  favicon: z.string(),
  coverImage: z.nullable(z.string()),
  clickCount: z.number(),
  metadataStatus: z.string(),
  linkStatus: z.string(),
  lastCheckedAt: IsoDate,
  httpStatusCode: z.number(),
  createdAt: IsoDate,
  // Ours, beyond the spec: optional so that the client also reads servers that only follow the spec.
  updatedAt: z.optional(IsoDate),
  deletedAt: z.optional(z.nullable(IsoDate)),
}));
export type Bookmark = z.infer<typeof Bookmark>;

/** The tag caps (docs/api-decisions.md, "Tag caps"): they bound what one request or one user's tags can cost. */
export const MAX_TAGS_PER_BOOKMARK = 100;
export const MAX_TAG_DEPTH = 8;
export const MAX_TAGS_PER_USER = 5000;

export const tagDepth = (name: string): number => name.split('/').length;

export const TagName = lazySchema(() => z
  .pipe(z.string().check(z.maxLength(MAX_TAG_NAME_LENGTH)), z.transform(normaliseTagName))
  .check(
    ...TAG_NAME_CHECKS.map((check) => z.refine<string>(check.ok, check.message)),
    z.refine<string>((name) => tagDepth(name) <= MAX_TAG_DEPTH, `must have at most ${MAX_TAG_DEPTH} levels`),
  ));

const tagList = lazySchema(() => z.pipe(
  z.array(TagName).check(z.maxLength(MAX_TAGS_PER_BOOKMARK)),
  z.transform((names: string[]) => dedupeCaseInsensitive(names)),
));

function dedupeCaseInsensitive(names: string[]): string[] {
  const seen = new Set<string>();
  return names.filter((n) => {
    const key = n.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The longest title a bookmark may have. */
export const MAX_TITLE_LENGTH = 2000;

export const CreateBookmarkBody = lazySchema(() => z.strictObject({
  url: httpUrl,
  title: z.optional(text(MAX_TITLE_LENGTH)),
  description: z.optional(text(10_000)),
  note: z.optional(z.string().check(z.maxLength(10_000))),
  tags: z.optional(tagList),
  collectionId: z.optional(z.nullable(Id)),
  type: z.optional(BookmarkType),
  isFavorite: z.optional(z.boolean()),
}));
export type CreateBookmarkBody = z.infer<typeof CreateBookmarkBody>;

/**
 * A create body as CreateBookmarkBody gave it out: its shape without its rules (trims, tag normalising, URL
 * parsing), to check one that comes back already checked (a queued save's body in the background's replies).
 * The popup that reads it then bundles no pipe, transform or refinement of zod's.
 */
export const CheckedCreateBookmarkBody: z.ZodMiniType<CreateBookmarkBody> = lazySchema(() => z.object({
  url: z.string(),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  note: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  collectionId: z.optional(z.nullable(z.string())),
  type: z.optional(BookmarkType),
  isFavorite: z.optional(z.boolean()),
  // Every field of the create body, and no other: a field added there and not here would be dropped from the replies.
} satisfies Record<keyof CreateBookmarkBody, z.ZodMiniType>));

/** Any subset of the bookmark's fields, as the spec says; names that are no bookmark field are refused. */
export const PatchBookmarkBody = lazySchema(() => {
  const writableFields = {
    url: httpUrl,
    title: text(MAX_TITLE_LENGTH),
    description: text(10_000),
    excerpt: z.string().check(z.maxLength(10_000)),
    note: z.string().check(z.maxLength(10_000)),
    tags: tagList,
    collectionId: z.nullable(Id),
    type: BookmarkType,
    isFavorite: z.boolean(),
    favicon: imageUrl,
    clickCount: z.int().check(z.minimum(0), z.maximum(1_000_000_000)),
  };

  /** Fields the server keeps: a PATCH may carry them (a bookmark sent back as it was read) and they are ignored. */
  const serverFields = {
    id: z.unknown(),
    domain: z.unknown(),
    coverImage: z.unknown(),
    metadataStatus: z.unknown(),
    linkStatus: z.unknown(),
    lastCheckedAt: z.unknown(),
    httpStatusCode: z.unknown(),
    createdAt: z.unknown(),
    updatedAt: z.unknown(),
    deletedAt: z.unknown(),
  };

  return z.pipe(
    z.partial(z.extend(z.strictObject(writableFields), serverFields)),
    z.transform((patch) => {
      const writable: Partial<{ [K in keyof typeof writableFields]: z.output<(typeof writableFields)[K]> }> = {};
      for (const key of Object.keys(writableFields) as (keyof typeof writableFields)[]) {
        if (patch[key] !== undefined) Object.assign(writable, { [key]: patch[key] });
      }
      return writable;
    }),
  );
});
export type PatchBookmarkBody = z.infer<typeof PatchBookmarkBody>;

export const FavoriteBody = lazySchema(() => z.strictObject({ isFavorite: z.boolean() }));
export const MoveBody = lazySchema(() => z.strictObject({ collectionId: z.nullable(Id) }));

export const BookmarkSort = lazySchema(() => z.enum(['newest', 'oldest', 'title', 'domain']));
export type BookmarkSort = z.infer<typeof BookmarkSort>;

export const MAX_LIST_LIMIT = 200;
export const ListBookmarksQuery = lazySchema(() => z.object({
  limit: limitParam(50, MAX_LIST_LIMIT),
  collectionId: z.optional(Id),
  domain: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
  type: z.optional(BookmarkType),
  isFavorite: z.optional(booleanParam),
  /** The bookmarks saved under this URL once normalised (see docs/api-decisions.md): how a client asks whether a page is saved. */
  url: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  linkStatus: z.optional(linkStatusList),
  sortBy: z._default(BookmarkSort, 'newest'),
  cursor: z.optional(Cursor),
}));
export type ListBookmarksQuery = z.infer<typeof ListBookmarksQuery>;

export const BookmarkPage = lazySchema(() => z.object({
  data: z.array(Bookmark),
  cursor: z.nullable(z.string()),
  hasMore: z.boolean(),
  truncated: z.boolean(),
}));
export type BookmarkPage = z.infer<typeof BookmarkPage>;

const SearchParams = lazySchema(() => z.object({ q: z.optional(z.string()), query: z.optional(z.string()), limit: limitParam(50, MAX_LIST_LIMIT) }));
export const SearchQuery = lazySchema(() => z
  .pipe(
    SearchParams,
    z.transform(({ q, query, limit }: z.output<typeof SearchParams>) => ({ q: (q || query || '').trim(), limit })),
  )
  .check(z.refine(({ q }) => q.length > 0, { message: 'is required (q or query)', path: ['q'] })));

export const DomainCount = lazySchema(() => z.object({ domain: z.string(), count: z.number() }));
export type DomainCount = z.infer<typeof DomainCount>;

/** GET /bookmarks/link-statuses: active bookmarks per link status (statuses without any are left out). */
export const LinkStatusCount = lazySchema(() => z.object({ linkStatus: LinkStatus, count: z.number() }));
export type LinkStatusCount = z.infer<typeof LinkStatusCount>;

export const BookmarkStats = lazySchema(() => z.object({
  total: z.number(),
  favorites: z.number(),
  unsorted: z.number(),
  noTags: z.number(),
  typeCounts: z.object({
    link: z.number(),
    article: z.number(),
    video: z.number(),
    image: z.number(),
    document: z.number(),
  }),
}));

export type BookmarkStats = z.infer<typeof BookmarkStats>;

/**
 * A bookmark as a duplicate group carries it: what a client shows side by side
 * and what a merge needs (the notes and tags it combines, and what tells which
 * copy holds the most), not the whole Bookmark: a group's excerpts, descriptions
 * and metadata made the 500 groups' answer several times larger and slower to
 * check (docs/api-decisions.md, "Search, domains, stats, duplicates").
 */
export const DuplicateBookmark = lazySchema(() => z.object({
  id: Id,
  url: z.string(),
  title: z.string(),
  note: z.string(),
  tags: z.array(z.string()),
  collectionId: z.nullable(z.string()),
  isFavorite: z.boolean(),
  hasDescription: z.boolean(),
  hasCover: z.boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
}));
export type DuplicateBookmark = z.infer<typeof DuplicateBookmark>;

export const DuplicateGroup = lazySchema(() => z.object({ normalizedUrl: z.string(), bookmarks: z.array(DuplicateBookmark) }));
export type DuplicateGroup = z.infer<typeof DuplicateGroup>;
export const DuplicatesResult = lazySchema(() => z.object({ groups: z.array(DuplicateGroup) }));
/**
 * DuplicatesResult with its groups not yet checked: a client that shows a few groups first checks each group
 * with DuplicateGroup when it uses it, instead of all 500 (about 40-150 ms in a fresh worker) before the first.
 */
export const DuplicatesResultOutline = lazySchema(() => z.object({ groups: z.array(z.unknown()) }));

export const TrashQuery = lazySchema(() => z.object({ limit: limitParam(50, MAX_LIST_LIMIT), cursor: z.optional(Cursor) }));
export const TrashPage = BookmarkPage;

/** What every single-bookmark state change answers: the bookmark as it now is. */
export const BookmarkResult = Bookmark;
export const DeletedResult = lazySchema(() => z.object({ id: Id, deleted: z.literal(true) }));
export const EmptyTrashResult = lazySchema(() => z.object({ deleted: z.number() }));
