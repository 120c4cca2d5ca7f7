/**
 * Work over many tags or links (renaming, deleting or merging a tag with many descendants
 * or bookmarks) goes in slices: a transaction repeats a small step until it has worked for
 * SLICE_MS, commits, and lets other requests in before the next one (docs/api-decisions.md,
 * "Tag caps"). By time rather than by count: removing a link costs 5 µs when the links lie
 * together and 80 µs when they are scattered over the table.
 */
export const SLICE_MS = 5;
/** The links or tags one step takes. */
export const CHUNK = 50;

export interface Link {
  seq: number;
  bookmark_id: string;
}

/**
 * For one operation: the bookmarks of each slice of links not met before in it, so that each
 * bookmark's updatedAt moves once however many of its tags the operation meets.
 */
export function firstMeetings(): (links: readonly Link[]) => string[] {
  const met = new Set<string>();
  return (links) => {
    const fresh = [...new Set(links.map((l) => l.bookmark_id))].filter((id) => !met.has(id));
    for (const id of fresh) met.add(id);
    return fresh;
  };
}
