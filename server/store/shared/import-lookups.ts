import { MAX_COLLECTIONS_PER_USER } from '../../../lib/api/collections.ts';
import { pathKey } from '../../interchange/collections.ts';

/** What the import writers share; the lookups are SQLite's (PostgreSQL's reads what a batch needs at once). */

/** The batch found its job no longer running (failed or deleted meanwhile): nothing of it may commit. */
export class JobGone extends Error {}

/** A collection's place among its siblings: parent id ('' for a root) and lowercased name. */
export const siblingKey = (parentId: string | null, name: string): string => `${parentId ?? ''}\n${name.toLowerCase()}`;

/** Ids looked up during one transaction; nothing else can change them before it commits. */
export interface Lookups {
  collections: Map<string, string>;
  /**
   * The active collections under a parent ('' for the roots), by lowercased name (the oldest
   * of a name), read once per parent: reading them for every folder made a file of 8,000
   * sibling folders block the server for 74 s.
   */
  siblings: Map<string, Map<string, string>>;
  nextOrder: Map<string, number>;
  tags: Map<string, string>;
  /** The user's number of tags, once known. */
  tagCount?: number;
  /** The user's number of collections, trashed ones included, once known. */
  collectionCount?: number;
}

export const noLookups = (): Lookups => ({ collections: new Map(), siblings: new Map(), nextOrder: new Map(), tags: new Map() });

/**
 * The folders of the file an import did not make because the account holds
 * MAX_COLLECTIONS_PER_USER collections: each path once, however often the file names it, so
 * that the job can say how many there were; their bookmarks went to the nearest folder made.
 */
export class CappedFolders {
  private readonly paths = new Set<string>();

  /** Whether a user holding `count` collections may have one more. */
  static room(count: number): boolean {
    return count < MAX_COLLECTIONS_PER_USER;
  }

  /** The folder at `path`'s first `level + 1` names was not made, nor any below it on this path. */
  add(path: readonly string[], level: number): void {
    for (let end = level + 1; end <= path.length; end++) this.paths.add(pathKey(path.slice(0, end)));
  }

  get size(): number {
    return this.paths.size;
  }
}
