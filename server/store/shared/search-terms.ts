/** A trigram index cannot answer a query shorter than one trigram. */
const TRIGRAM = 3;

/** Whether the search text is too short for the trigram index (characters, not UTF-16 units). */
export const isShortQuery = (text: string): boolean => [...text].length < TRIGRAM;

/**
 * How many of the newest active bookmarks a query of one or two characters looks through: such
 * a query has no index to use, and this bound keeps it from holding the event loop (or the
 * database) over a large library (docs/api-decisions.md, "Search").
 */
export const SHORT_QUERY_SCAN = 10_000;

/**
 * A query holding U+0000 matches nothing on either backend: FTS5 took it for the end of its
 * string (an error), and PostgreSQL text cannot hold it, so no bookmark there contains it.
 */
export const unsearchable = (text: string): boolean => text.includes('\u0000');
