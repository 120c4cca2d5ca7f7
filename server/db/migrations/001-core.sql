-- Accounts, tokens, collections, bookmarks, tags and idempotency records.
-- Times are integer milliseconds since the epoch (of the server's clock).

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  plan TEXT NOT NULL CHECK (plan IN ('pro', 'free')),
  status TEXT NOT NULL DEFAULT 'active',
  created_at INTEGER NOT NULL
);

CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER,
  last_used_at INTEGER
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE collections (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  icon TEXT NOT NULL DEFAULT '',
  color TEXT NOT NULL DEFAULT '',
  parent_id TEXT,
  sort_order INTEGER NOT NULL DEFAULT 0,
  notes TEXT NOT NULL DEFAULT '',
  share_slug TEXT NOT NULL UNIQUE,
  is_shared INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  deleted_at INTEGER,
  -- the collection whose DELETE trashed this one (itself for the root of a cascade)
  trash_root TEXT
);
CREATE INDEX collections_user ON collections(user_id, deleted_at);
CREATE INDEX collections_parent ON collections(parent_id);

CREATE TABLE bookmarks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  url TEXT NOT NULL,
  -- the URL normalised (scheme, www, trailing slash, tracking parameters) for duplicate detection
  url_key TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  excerpt TEXT NOT NULL DEFAULT '',
  note TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL DEFAULT 'link',
  is_favorite INTEGER NOT NULL DEFAULT 0,
  collection_id TEXT,
  domain TEXT NOT NULL,
  favicon TEXT NOT NULL DEFAULT '',
  cover_file_id TEXT,
  cover_image TEXT,
  click_count INTEGER NOT NULL DEFAULT 0,
  metadata_status TEXT NOT NULL,
  link_status TEXT NOT NULL,
  last_checked_at INTEGER NOT NULL,
  http_status_code INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  deleted_at INTEGER,
  -- the collection whose cascading DELETE trashed this bookmark
  trash_root TEXT
);
CREATE INDEX bookmarks_url ON bookmarks(user_id, url);
CREATE INDEX bookmarks_url_key ON bookmarks(user_id, url_key);
CREATE INDEX bookmarks_newest ON bookmarks(user_id, created_at, seq) WHERE deleted_at IS NULL;
CREATE INDEX bookmarks_title ON bookmarks(user_id, title COLLATE NOCASE, seq) WHERE deleted_at IS NULL;
CREATE INDEX bookmarks_domain ON bookmarks(user_id, domain, created_at, seq) WHERE deleted_at IS NULL;
CREATE INDEX bookmarks_collection ON bookmarks(collection_id, created_at, seq);
CREATE INDEX bookmarks_favorite ON bookmarks(user_id, created_at, seq) WHERE deleted_at IS NULL AND is_favorite = 1;
CREATE INDEX bookmarks_trash ON bookmarks(user_id, deleted_at, seq) WHERE deleted_at IS NOT NULL;

CREATE TABLE tags (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  color TEXT,
  parent_id TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, name_key)
);
CREATE INDEX tags_parent ON tags(parent_id);

-- seq orders the memberships of a tag, which the exact-tag smart-folder strategy scans in pages
CREATE TABLE bookmark_tags (
  seq INTEGER PRIMARY KEY,
  bookmark_id TEXT NOT NULL REFERENCES bookmarks(id) ON DELETE CASCADE,
  tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  UNIQUE (bookmark_id, tag_id)
);
CREATE INDEX bookmark_tags_tag ON bookmark_tags(tag_id, seq);

CREATE TABLE idempotency_keys (
  user_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER,
  body TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_created ON idempotency_keys(created_at);
