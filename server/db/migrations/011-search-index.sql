-- Substring search of title, description and URL answered from an index: an FTS5 table with the
-- trigram tokenizer (case folded in every script, diacritics kept), over the bookmarks rows
-- themselves (external content, so the text is not stored twice). A LIKE scan of every row took
-- a second for a rare word at a million bookmarks. Trashed bookmarks stay indexed (restore needs
-- no re-indexing); the search filters them out.

CREATE VIRTUAL TABLE bookmarks_search USING fts5(
  title, description, url,
  content = 'bookmarks', content_rowid = 'seq', tokenize = 'trigram'
);

INSERT INTO bookmarks_search (bookmarks_search) VALUES ('rebuild');

CREATE TRIGGER bookmarks_search_insert AFTER INSERT ON bookmarks BEGIN
  INSERT INTO bookmarks_search (rowid, title, description, url) VALUES (NEW.seq, NEW.title, NEW.description, NEW.url);
END;

-- An external-content FTS5 table forgets a row only when given the text it indexed.
CREATE TRIGGER bookmarks_search_delete AFTER DELETE ON bookmarks BEGIN
  INSERT INTO bookmarks_search (bookmarks_search, rowid, title, description, url)
  VALUES ('delete', OLD.seq, OLD.title, OLD.description, OLD.url);
END;

CREATE TRIGGER bookmarks_search_update AFTER UPDATE OF title, description, url ON bookmarks BEGIN
  INSERT INTO bookmarks_search (bookmarks_search, rowid, title, description, url)
  VALUES ('delete', OLD.seq, OLD.title, OLD.description, OLD.url);
  INSERT INTO bookmarks_search (rowid, title, description, url) VALUES (NEW.seq, NEW.title, NEW.description, NEW.url);
END;
