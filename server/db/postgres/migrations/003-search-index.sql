-- Substring search of title, description and URL answered from an index (PostgreSQL's twin of
-- SQLite's 011-search-index): pg_trgm's trigrams of each field, case folded by lower() under the
-- Unicode collation "und-x-icu", which folds every script (Cyrillic, Greek, accented Latin...)
-- and keeps accents, with final sigma as sigma (FTS5's folding makes them one letter). The
-- collation is named here and in the query (server/store/postgres/bookmark-search.ts, whose
-- expressions must stay the same as these) rather than taken from the database's default, which
-- may fold ASCII only, or differently. Trashed bookmarks stay indexed (restore needs no
-- re-indexing); the search filters them out.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- One index per field, their bitmaps OR-ed as the query ORs the fields. GIN takes new rows into a
-- pending list that (auto)vacuum merges: until a table's first vacuum the planner costs these
-- indexes from empty statistics and may scan the table instead (measured: 20,000 rows, a rare word
-- 250 ms by a scan before VACUUM, 0.1 ms from the indexes after). fastupdate = off avoids that at
-- three times the cost of each insert, which imports would pay.
CREATE INDEX bookmarks_search_title ON bookmarks USING gin (translate(lower(title COLLATE "und-x-icu"), 'ς', 'σ') gin_trgm_ops);
CREATE INDEX bookmarks_search_description ON bookmarks USING gin (translate(lower(description COLLATE "und-x-icu"), 'ς', 'σ') gin_trgm_ops);
CREATE INDEX bookmarks_search_url ON bookmarks USING gin (translate(lower(url COLLATE "und-x-icu"), 'ς', 'σ') gin_trgm_ops);
