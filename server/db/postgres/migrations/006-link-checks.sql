-- The link checker (server/link-check/): which bookmarks are due for a check, and who checks whose.
--
-- link_checked_at orders the checks: when the URL was last fetched (0: never, checked first).
-- A bookmark whose page was fetched when it was saved counts as checked then; an imported one
-- (linkStatus unchecked) as never. A re-check asked for by the user sets it back to 0.
ALTER TABLE bookmarks ADD COLUMN link_checked_at BIGINT NOT NULL DEFAULT 0;
UPDATE bookmarks SET link_checked_at = last_checked_at WHERE link_status <> 'unchecked';
CREATE INDEX bookmarks_link_due ON bookmarks(user_id, link_checked_at) WHERE deleted_at IS NULL;

-- One row per user the checker has worked for: the instance checking the user's links now
-- (a lease, real time, so that two instances never check one user's links at once) and the
-- checks made on the user's current day (the daily cap; day = ms since epoch / one day).
CREATE TABLE link_check_users (
  user_id TEXT COLLATE "C" PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  lease_owner TEXT,
  lease_until BIGINT,
  day INTEGER NOT NULL DEFAULT 0,
  checks INTEGER NOT NULL DEFAULT 0
);
