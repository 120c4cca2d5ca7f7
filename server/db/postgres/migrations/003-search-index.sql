-- Substring search of title, description and URL answered from an index (PostgreSQL's twin of
-- SQLite's 011-search-index): pg_trgm's trigrams of each field, case folded by lower() under the
-- Unicode collation "und-x-icu", which folds every script (Cyrillic, Greek, accented Latin...)
-- and keeps accents, with final sigma as sigma (FTS5's folding makes them one letter). The
-- collation is named here and in the query (server/store/postgres/bookmark-search.ts, whose
-- expressions must stay the same as these) rather than taken from the database's default, which
-- may fold ASCII only, or differently. Trashed bookmarks stay indexed (restore needs no
-- re-indexing); the search filters them out.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX bookmarks_search ON bookmarks USING gin (
  translate(lower(title COLLATE "und-x-icu"), 'ς', 'σ') gin_trgm_ops,
  translate(lower(description COLLATE "und-x-icu"), 'ς', 'σ') gin_trgm_ops,
  translate(lower(url COLLATE "und-x-icu"), 'ς', 'σ') gin_trgm_ops
);
