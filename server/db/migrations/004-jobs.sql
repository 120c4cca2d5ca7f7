-- Import and export jobs. An import records its place in the file (position) and its counts
-- in the same transaction as each batch of bookmarks, so that a restart resumes exactly after
-- the last committed batch. An export's artifact lives at <dataDir>/exports/<id>.<format>.

CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('import', 'export')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  progress INTEGER NOT NULL DEFAULT 0,
  -- export: json, csv or html; import: the format recognised in the file, once read
  format TEXT,
  -- import: the uploaded file it reads
  storage_id TEXT,
  -- import: entries of the parsed file handled by committed batches
  position INTEGER NOT NULL DEFAULT 0,
  imported INTEGER NOT NULL DEFAULT 0,
  skipped INTEGER NOT NULL DEFAULT 0,
  duplicates INTEGER NOT NULL DEFAULT 0,
  -- import: JSON array of the first { line?, reason } of skipped entries, set on completion
  skipped_reasons TEXT,
  error_message TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  completed_at INTEGER,
  -- export: when its artifact stops being downloadable
  expires_at INTEGER,
  -- 1 once the clean-up removed what the job left on disk (import file, export artifact)
  files_removed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX jobs_status ON jobs(status, type);
CREATE INDEX jobs_created ON jobs(created_at);
CREATE INDEX jobs_files ON jobs(status, files_removed) WHERE files_removed = 0;
