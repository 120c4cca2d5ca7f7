/** The spec's evaluation rule 4, in one place. */
export const EVALUATION_LIMITS = {
  /** Tag memberships an exact-tag page walks. */
  membershipsPerPage: 200,
  /** Bookmarks a page holds at most, whatever the strategy. */
  pageSize: 200,
  /** Bookmarks a scan evaluation examines, over all of its pages. */
  scanLimit: 5_000,
  /** Bookmarks an evaluation returns, over all of its pages. */
  resultCap: 500,
} as const;
