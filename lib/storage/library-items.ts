import * as z from 'zod/mini';
import { Bookmark, BookmarkSort } from '../api/bookmarks.ts';
import { Collection } from '../api/collections.ts';
import { SmartFolder } from '../api/smart-folders.ts';
import { BrowsePage } from '../messaging/library-replies.ts';
import { BrowseSource } from '../messaging/library-requests.ts';
import { COLLECTIONS_CACHE_KEY, LIBRARY_SORTS_KEY, LIBRARY_VIEWS_KEY, PANEL_PLACE_KEY, SMART_FOLDERS_CACHE_KEY, firstPageKey } from './opening-keys.ts';
import { readItem, typedItem } from './typed-item.ts';
import { lazySchema } from '../api/lazy-schema.ts';

/** Stored items of the library pages' background services; apart from items.ts so that the popup does not load them. */

/** What the Collections tree shows of a collection: its first render needs no more. */
export const CollectionTreeEntry = lazySchema(() => z.pick(Collection, { id: true, parentId: true, name: true, icon: true, color: true, bookmarkCount: true }));
export type CollectionTreeEntry = z.infer<typeof CollectionTreeEntry>;

/**
 * The kept collections (items.ts' collectionsCacheItem) as the options page
 * opens with them: only the tree's fields checked, and only those kept, so the
 * tree is drawn without waiting for the check of every field (1,000 collections,
 * in a trace: 5-11 ms from the read to the first render's start, not 16-23); the
 * section reads and checks the whole list right after.
 */
export const collectionTreeView = readItem(COLLECTIONS_CACHE_KEY, z.nullable(z.object({ items: z.array(CollectionTreeEntry) })), { fallback: null, onInvalid: 'fallback', asText: true });

export const smartFoldersCacheItem = typedItem(SMART_FOLDERS_CACHE_KEY, z.nullable(z.object({ items: z.array(SmartFolder), fetchedAt: z.number() })), {
  fallback: null,
  onInvalid: 'fallback',
  asText: true,
});

/** One evaluation pass: the pages fetched so far and the cursor to follow. */
const Pass = lazySchema(() => z.object({ bookmarks: z.array(Bookmark), cursor: z.nullable(z.string()), truncated: z.boolean(), pages: z.number() }));

/** A folder's kept results: the last finished pass and the one under way, for the rules they were asked with. */
export const SmartFolderResults = lazySchema(() => z.object({
  rules: z.string(),
  done: z.nullable(z.extend(Pass, { fetchedAt: z.number() })),
  running: z.nullable(Pass),
}));
export type SmartFolderResults = z.infer<typeof SmartFolderResults>;
export const smartFolderResultsItem = typedItem('local:smartFolderResults', z.record(z.string(), SmartFolderResults), {
  fallback: {},
  onInvalid: 'fallback',
  asText: true,
});

/** What the side panel showed last: it opens there again. */
export const PanelPlace = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('list'), source: BrowseSource, title: z.string() }),
  z.object({ kind: z.literal('smart'), id: z.string(), name: z.string() }),
]));
export type PanelPlace = z.infer<typeof PanelPlace>;
export const panelPlaceItem = typedItem(PANEL_PLACE_KEY, z.nullable(PanelPlace), { fallback: null, onInvalid: 'fallback' });

/** The first page of a list opened before (by its source, as JSON), so that it opens at once: one item a list, read alone. */
export const firstPageItem = (source: string) =>
  typedItem(firstPageKey(source), z.nullable(z.extend(BrowsePage, { keptAt: z.number() })), { fallback: null, onInvalid: 'fallback', asText: true });

/** Which lists' first pages are kept, newest first, so that the oldest can go. */
export const firstPageKeysItem = typedItem('local:firstPageKeys', z.array(z.string()), { fallback: [], onInvalid: 'fallback' });

/** The library page's ways of showing a list: dense lines, cards with covers, or a grid of covers. */
export const LibraryView = lazySchema(() => z.enum(['list', 'cards', 'grid']));
export type LibraryView = z.infer<typeof LibraryView>;

/** The view the user chose for each of the library page's places (by placeKey): each opens as it was left. */
export const libraryViewsItem = typedItem(LIBRARY_VIEWS_KEY, z.record(z.string(), LibraryView), { fallback: {}, onInvalid: 'fallback' });

/** The order the user chose for each list (by the view's key), in the side panel and the library page alike. */
export const librarySortsItem = typedItem(LIBRARY_SORTS_KEY, z.record(z.string(), BookmarkSort), { fallback: {}, onInvalid: 'fallback' });
