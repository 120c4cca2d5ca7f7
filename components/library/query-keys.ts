import type { BookmarkSort, LinkStatus } from '../../lib/api/bookmarks.ts';
import type { BrowseSource } from '../../lib/messaging/library-requests.ts';

/**
 * Every react-query key of the library pages, in one place. Bookmark lists all
 * start with 'bookmarks', so that one change can reach every list that shows it.
 */
export const keys = {
  collections: ['collections'] as const,
  /** The kept collections as the options page opens with them (lib/storage/library-items.ts' collectionTreeView); apart from 'collections' so that no invalidation of those reaches it. */
  collectionTree: ['collection-tree'] as const,
  tags: ['tags'] as const,
  smartFolders: ['smart-folders'] as const,
  account: ['account'] as const,
  trashedCollections: ['collections', 'trashed'] as const,
  collectionShare: (id: string) => ['collections', 'share', id] as const,
  bookmarkLists: ['bookmarks'] as const,
  browse: (source: BrowseSource, sort: BookmarkSort = 'newest') => ['bookmarks', 'browse', source, sort] as const,
  /** The choices kept per place in a storage item (view-choice.ts), by the item's key: read once a page. */
  keptChoices: (item: string) => ['kept-choices', item] as const,
  /** A search with operators (search/use-library-search.ts): the text, where it was asked, and what its plan reads. */
  find: (text: string, scope: BrowseSource, plan: string | null) => ['bookmarks', 'find', text, scope, plan] as const,
  domains: ['bookmarks', 'domains'] as const,
  stats: ['bookmarks', 'stats'] as const,
  recentSearches: ['recent-searches'] as const,
  smartFolder: (id: string) => ['bookmarks', 'smart-folder', id] as const,
  savedPage: (url: string) => ['saved-page', url] as const,
  trash: ['trash'] as const,
  duplicates: ['duplicates'] as const,
  /** Under 'bookmarks', so that a change to bookmarks elsewhere reaches the Broken links lists too. */
  linkStatusCounts: ['bookmarks', 'link-status-counts'] as const,
  byLinkStatus: (linkStatus: LinkStatus) => ['bookmarks', 'link-status', linkStatus] as const,
  job: (id: string) => ['job', id] as const,
};
