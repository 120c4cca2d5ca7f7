-- Smart folders: rule definitions only; evaluation reads the bookmarks and tags tables.

CREATE TABLE smart_folders (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  icon TEXT NOT NULL DEFAULT '',
  color TEXT NOT NULL DEFAULT '',
  -- the validated Rules object as JSON
  rules TEXT NOT NULL,
  -- bumped whenever the rules change: exact-tag cursors carry it and die with it
  rules_version INTEGER NOT NULL DEFAULT 1,
  -- secret that signs this folder's evaluation cursors, so a forged or foreign cursor is refused
  cursor_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX smart_folders_user ON smart_folders(user_id, name COLLATE NOCASE, seq);

-- Lets a type rule walk that type's bookmarks newest first, as the domain and favorite indexes do for theirs.
CREATE INDEX bookmarks_type ON bookmarks(user_id, type, created_at, seq) WHERE deleted_at IS NULL;
