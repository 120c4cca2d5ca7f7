-- Counts kept by triggers rather than recomputed by scanning on every read (issue 12: at a million
-- bookmarks GET /collections took 1.5 s, /bookmarks/stats 9.8 s, /bookmarks/domains 0.13 s):
-- each collection's active bookmarks, each user's stats, and each user's active bookmarks per
-- domain. Every trigger handles one kind of row change; an UPDATE takes the row's old share out
-- and puts its new share in, so that any combination of changed columns stays right.

ALTER TABLE collections ADD COLUMN active_count INTEGER NOT NULL DEFAULT 0;

UPDATE collections SET active_count = (
  SELECT COUNT(*) FROM bookmarks b WHERE b.collection_id = collections.id AND b.deleted_at IS NULL
);

CREATE TABLE bookmark_stats (
  user_id TEXT PRIMARY KEY,
  total INTEGER NOT NULL DEFAULT 0,
  favorites INTEGER NOT NULL DEFAULT 0,
  unsorted INTEGER NOT NULL DEFAULT 0,
  -- active bookmarks with no tag link
  no_tags INTEGER NOT NULL DEFAULT 0,
  link INTEGER NOT NULL DEFAULT 0,
  article INTEGER NOT NULL DEFAULT 0,
  video INTEGER NOT NULL DEFAULT 0,
  image INTEGER NOT NULL DEFAULT 0,
  document INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

INSERT INTO bookmark_stats (user_id, total, favorites, unsorted, no_tags, link, article, video, image, document)
SELECT b.user_id, COUNT(*), SUM(b.is_favorite), SUM(b.collection_id IS NULL),
  SUM(NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = b.id)),
  SUM(b.type = 'link'), SUM(b.type = 'article'), SUM(b.type = 'video'), SUM(b.type = 'image'), SUM(b.type = 'document')
FROM bookmarks b WHERE b.deleted_at IS NULL GROUP BY b.user_id;

-- Rows with a zero count are removed, so that a read lists exactly the domains in use.
CREATE TABLE domain_counts (
  user_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (user_id, domain)
) WITHOUT ROWID;
CREATE INDEX domain_counts_order ON domain_counts(user_id, count DESC, domain);

INSERT INTO domain_counts (user_id, domain, count)
SELECT user_id, domain, COUNT(*) FROM bookmarks WHERE deleted_at IS NULL GROUP BY user_id, domain;

-- One active bookmark's share: sign is 1 to add it, -1 to take it out.

CREATE TRIGGER counts_bookmark_added AFTER INSERT ON bookmarks WHEN NEW.deleted_at IS NULL BEGIN
  UPDATE collections SET active_count = active_count + 1 WHERE id = NEW.collection_id;
  INSERT INTO bookmark_stats (user_id, total, favorites, unsorted, no_tags, link, article, video, image, document)
  VALUES (NEW.user_id, 1, NEW.is_favorite, NEW.collection_id IS NULL,
    NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = NEW.id),
    NEW.type = 'link', NEW.type = 'article', NEW.type = 'video', NEW.type = 'image', NEW.type = 'document')
  ON CONFLICT (user_id) DO UPDATE SET total = total + excluded.total, favorites = favorites + excluded.favorites,
    unsorted = unsorted + excluded.unsorted, no_tags = no_tags + excluded.no_tags, link = link + excluded.link,
    article = article + excluded.article, video = video + excluded.video, image = image + excluded.image,
    document = document + excluded.document;
  INSERT INTO domain_counts (user_id, domain, count) VALUES (NEW.user_id, NEW.domain, 1)
  ON CONFLICT (user_id, domain) DO UPDATE SET count = count + 1;
END;

-- BEFORE: the bookmark's tag links (removed by ON DELETE CASCADE) are still there to be seen.
CREATE TRIGGER counts_bookmark_gone BEFORE DELETE ON bookmarks WHEN OLD.deleted_at IS NULL BEGIN
  UPDATE collections SET active_count = active_count - 1 WHERE id = OLD.collection_id;
  UPDATE bookmark_stats SET total = total - 1, favorites = favorites - OLD.is_favorite,
    unsorted = unsorted - (OLD.collection_id IS NULL),
    no_tags = no_tags - NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = OLD.id),
    link = link - (OLD.type = 'link'), article = article - (OLD.type = 'article'), video = video - (OLD.type = 'video'),
    image = image - (OLD.type = 'image'), document = document - (OLD.type = 'document')
  WHERE user_id = OLD.user_id;
  UPDATE domain_counts SET count = count - 1 WHERE user_id = OLD.user_id AND domain = OLD.domain;
  DELETE FROM domain_counts WHERE user_id = OLD.user_id AND domain = OLD.domain AND count = 0;
END;

CREATE TRIGGER counts_bookmark_changed AFTER UPDATE OF deleted_at, collection_id, is_favorite, type, domain ON bookmarks
WHEN OLD.deleted_at IS NULL OR NEW.deleted_at IS NULL BEGIN
  -- A bookmark saved already trashed (an import) made no stats row.
  INSERT OR IGNORE INTO bookmark_stats (user_id) VALUES (NEW.user_id);
  UPDATE collections SET active_count = active_count - 1 WHERE id = OLD.collection_id AND OLD.deleted_at IS NULL;
  UPDATE collections SET active_count = active_count + 1 WHERE id = NEW.collection_id AND NEW.deleted_at IS NULL;
  UPDATE bookmark_stats SET
    total = total - (OLD.deleted_at IS NULL) + (NEW.deleted_at IS NULL),
    favorites = favorites - (OLD.deleted_at IS NULL AND OLD.is_favorite) + (NEW.deleted_at IS NULL AND NEW.is_favorite),
    unsorted = unsorted - (OLD.deleted_at IS NULL AND OLD.collection_id IS NULL) + (NEW.deleted_at IS NULL AND NEW.collection_id IS NULL),
    no_tags = no_tags + ((NEW.deleted_at IS NULL) - (OLD.deleted_at IS NULL))
      * NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = NEW.id),
    link = link - (OLD.deleted_at IS NULL AND OLD.type = 'link') + (NEW.deleted_at IS NULL AND NEW.type = 'link'),
    article = article - (OLD.deleted_at IS NULL AND OLD.type = 'article') + (NEW.deleted_at IS NULL AND NEW.type = 'article'),
    video = video - (OLD.deleted_at IS NULL AND OLD.type = 'video') + (NEW.deleted_at IS NULL AND NEW.type = 'video'),
    image = image - (OLD.deleted_at IS NULL AND OLD.type = 'image') + (NEW.deleted_at IS NULL AND NEW.type = 'image'),
    document = document - (OLD.deleted_at IS NULL AND OLD.type = 'document') + (NEW.deleted_at IS NULL AND NEW.type = 'document')
  WHERE user_id = OLD.user_id;
  UPDATE domain_counts SET count = count - 1 WHERE OLD.deleted_at IS NULL AND user_id = OLD.user_id AND domain = OLD.domain;
  DELETE FROM domain_counts WHERE user_id = OLD.user_id AND domain = OLD.domain AND count = 0;
  INSERT INTO domain_counts (user_id, domain, count) SELECT NEW.user_id, NEW.domain, 1 WHERE NEW.deleted_at IS NULL
  ON CONFLICT (user_id, domain) DO UPDATE SET count = count + 1;
END;

-- A bookmark's first tag link takes it out of no_tags; its last one puts it back. Links that go
-- with their bookmark (the cascade runs after the row is gone) find no active bookmark here.
CREATE TRIGGER counts_tag_linked AFTER INSERT ON bookmark_tags BEGIN
  UPDATE bookmark_stats SET no_tags = no_tags - 1
  WHERE user_id = (SELECT b.user_id FROM bookmarks b WHERE b.id = NEW.bookmark_id AND b.deleted_at IS NULL)
    AND (SELECT COUNT(*) FROM bookmark_tags l WHERE l.bookmark_id = NEW.bookmark_id) = 1;
END;

CREATE TRIGGER counts_tag_unlinked AFTER DELETE ON bookmark_tags BEGIN
  UPDATE bookmark_stats SET no_tags = no_tags + 1
  WHERE user_id = (SELECT b.user_id FROM bookmarks b WHERE b.id = OLD.bookmark_id AND b.deleted_at IS NULL)
    AND NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = OLD.bookmark_id);
END;
