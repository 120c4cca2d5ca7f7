/**
 * The link checker's statements that both backends share, with named parameters ($name): SQLite
 * binds them as @name, PostgreSQL's store numbers them.
 */

/** The user's lease is free for $owner at $at: nobody's, $owner's own, or lapsed. */
export const FREE_LEASE =
  'link_check_users.lease_owner IS NULL OR link_check_users.lease_owner = $owner OR link_check_users.lease_until <= $at';

/**
 * Users with links due (see LinkChecksStore.candidates), the one worked for least recently first.
 * Read per user through bookmarks_link_due, so that it costs a look-up per user, not a scan of bookmarks.
 */
export const DUE_USERS_SQL = `SELECT u.id FROM users u LEFT JOIN link_check_users l ON l.user_id = u.id
  WHERE (l.user_id IS NULL OR l.lease_owner IS NULL OR l.lease_until <= $at)
    AND (l.user_id IS NULL OR l.day <> $day OR l.checks < $cap)
    AND EXISTS (SELECT 1 FROM bookmarks b WHERE b.user_id = u.id AND b.deleted_at IS NULL AND b.link_checked_at < $dueBefore)
  ORDER BY COALESCE(l.lease_until, 0), u.id
  LIMIT $limit`;
