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
}

export const noLookups = (): Lookups => ({ collections: new Map(), siblings: new Map(), nextOrder: new Map(), tags: new Map() });
