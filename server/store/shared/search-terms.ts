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
