/**
 * The storage keys the library pages open with, apart from the items' modules so
 * that the pages' early scripts read them without loading the schemas.
 */
export const PANEL_PLACE_KEY = 'local:sidePanelPlace';
export const COLLECTIONS_CACHE_KEY = 'local:collectionsCache';
export const TAGS_CACHE_KEY = 'local:tagsCache';
export const SMART_FOLDERS_CACHE_KEY = 'local:smartFoldersCache';
/** The order chosen for each list (library-items.ts' librarySortsItem): the side panel opens its list in it. */
export const LIBRARY_SORTS_KEY = 'local:librarySorts';
/** The view chosen for each list (library-items.ts' libraryViewsItem): the library page opens its list in it. */
export const LIBRARY_VIEWS_KEY = 'local:libraryViews';

/** A list's kept first page, by its source as JSON. */
export const firstPageKey = (source: string) => `local:firstPage:${source}` as const;
