export interface InterchangeBookmark {
  url: string;
  title: string;
  description: string;
  note: string;
  type: 'link' | 'article' | 'image' | 'video' | 'document';
  isFavorite: boolean;
  /** Tag names, hierarchical with '/'. */
  tags: string[];
  /** Folder names from the root; [] means Unsorted. */
  collectionPath: string[];
  /** Milliseconds since the epoch, null when unknown. */
  createdAt: number | null;
}

/** Listed separately so empty collections and their attributes survive a round trip. */
export interface InterchangeCollection {
  path: string[];
  icon: string;
  color: string;
  notes: string;
}

export interface ParsedImport {
  format:
    | 'shelf-json'
    | 'shelf-csv'
    | 'netscape-html'
    | 'pocket-csv'
    | 'pocket-html'
    | 'instapaper-csv'
    | 'raindrop-csv'
    | 'chromium-json'
    | 'firefox-json';
  bookmarks: InterchangeBookmark[];
  /** Every folder seen, including empty ones, parents before children. */
  collections: InterchangeCollection[];
  /** Entries that could not be read; parsing never throws for a bad entry. */
  skipped: SkippedEntry[];
}

export type ImportFormat = ParsedImport['format'];
export type ExportFormat = 'json' | 'csv' | 'html';
export type BookmarkType = InterchangeBookmark['type'];
/** Why an entry was not imported; `group` is the reason without what is particular to the entry (the reason itself when absent). */
export interface SkipReason {
  reason: string;
  group?: string;
}
export type SkippedEntry = SkipReason & { line?: number };

export interface InterchangeLibrary {
  bookmarks: InterchangeBookmark[];
  collections: InterchangeCollection[];
  /** Milliseconds since the epoch. */
  exportedAt: number;
}

/**
 * What an export is written from: the folders at once (a library has few), the bookmarks as
 * pages read one after another, so that a library of any size is written in bounded memory.
 */
export interface ExportSource {
  /** Every folder the bookmarks use, in tree order: depth first, parents before children, siblings in their order. */
  collections: InterchangeCollection[];
  /** Milliseconds since the epoch. */
  exportedAt: number;
  /** The bookmarks in library order; with a folder path, only that folder's ([] for Unsorted). */
  bookmarks(folder?: readonly string[]): AsyncIterable<readonly InterchangeBookmark[]>;
}
