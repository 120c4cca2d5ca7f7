-- The bytes of stored files, so that instances share no disk: uploads (space 'uploads') and,
-- in a space of their own, export artifacts. A file is a header row and its bytes in chunks of
-- a fixed size, so that neither writing nor reading one holds the whole file in memory.
CREATE TABLE file_bytes (
  space TEXT COLLATE "C" NOT NULL,
  id TEXT COLLATE "C" NOT NULL,
  -- 0 while being written: only complete files are opened, as only renamed .part files on disk
  complete INTEGER NOT NULL DEFAULT 0,
  size BIGINT NOT NULL DEFAULT 0,
  chunks INTEGER NOT NULL DEFAULT 0,
  -- when its writer last added to it (ms, the database's clock): the sweep of bytes no record
  -- owns leaves alone what any instance may still be writing
  touched_at BIGINT NOT NULL,
  PRIMARY KEY (space, id)
);
CREATE INDEX file_bytes_touched ON file_bytes(space, touched_at);

CREATE TABLE file_chunks (
  space TEXT COLLATE "C" NOT NULL,
  file_id TEXT COLLATE "C" NOT NULL,
  -- 0, 1, 2… in file order
  n INTEGER NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (space, file_id, n),
  FOREIGN KEY (space, file_id) REFERENCES file_bytes(space, id) ON DELETE CASCADE
);
-- Images and archives are mostly compressed already: stored out of line as they are.
ALTER TABLE file_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
