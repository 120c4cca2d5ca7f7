-- The storage service: upload reservations (covers and import files) and the files received
-- through them. A file's bytes live at <dataDir>/files/<id>; its row is written once they are complete.
-- No foreign key points at bookmarks, so that deleting a bookmark never waits on storage:
-- the maintenance sweep frees what a deleted bookmark leaves behind.

CREATE TABLE upload_reservations (
  id TEXT PRIMARY KEY,
  -- SHA-256 of the secret token in the uploadUrl: the URL is the credential, so only its hash is kept
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('cover', 'import')),
  -- what it is bound to: a bookmark (cover) or an import job (import)
  bookmark_id TEXT,
  job_id TEXT,
  max_bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  -- the file its one upload writes: set when that upload starts, cleared if it fails
  file_id TEXT UNIQUE,
  -- when a save-cover consumed it
  used_at INTEGER
);
CREATE INDEX upload_reservations_pending ON upload_reservations(user_id, kind, expires_at) WHERE used_at IS NULL;
CREATE INDEX upload_reservations_expiry ON upload_reservations(expires_at);
CREATE INDEX upload_reservations_job ON upload_reservations(job_id) WHERE job_id IS NOT NULL;

CREATE TABLE stored_files (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('cover', 'import')),
  size INTEGER NOT NULL,
  -- the Content-Type the upload declared (parameters dropped); null when it made no claim
  declared_type TEXT,
  -- the image type its first bytes show; null when none of JPEG, PNG, GIF, WebP
  detected_type TEXT,
  -- 1: the upload went past its limit; this row is a marker and no bytes are kept
  oversize INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  -- when a save made it a bookmark's cover
  attached_at INTEGER
);
CREATE INDEX stored_files_kind ON stored_files(kind, attached_at);
CREATE INDEX stored_files_created ON stored_files(kind, created_at);

CREATE INDEX bookmarks_cover_file ON bookmarks(cover_file_id) WHERE cover_file_id IS NOT NULL;
