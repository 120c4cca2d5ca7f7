-- Each user's data version (issue 21): moved by every write to what that user's cached answers are
-- made from, in the write's own transaction, whoever writes (a request, a job, the admin command,
-- another instance). The read cache files a user's answers under it (server/http/response-cache.ts),
-- so that one user's writes no longer make every other user's answers be built again. A triggered
-- count rather than the writers' own: a write that forgot it would serve stale answers.
-- Tokens, jobs, idempotency records and the rest are not in cached answers, and do not move it.

CREATE TABLE data_versions (
  user_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) WITHOUT ROWID;


CREATE TRIGGER data_version_collections_insert AFTER INSERT ON collections BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_collections_update AFTER UPDATE ON collections BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_collections_delete AFTER DELETE ON collections BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_bookmarks_insert AFTER INSERT ON bookmarks BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_bookmarks_update AFTER UPDATE ON bookmarks BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_bookmarks_delete AFTER DELETE ON bookmarks BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_tags_insert AFTER INSERT ON tags BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_tags_update AFTER UPDATE ON tags BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_tags_delete AFTER DELETE ON tags BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_smart_folders_insert AFTER INSERT ON smart_folders BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_smart_folders_update AFTER UPDATE ON smart_folders BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_smart_folders_delete AFTER DELETE ON smart_folders BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_stored_files_insert AFTER INSERT ON stored_files BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_stored_files_update AFTER UPDATE ON stored_files BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_stored_files_delete AFTER DELETE ON stored_files BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_users_update AFTER UPDATE ON users BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (NEW.id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_users_delete AFTER DELETE ON users BEGIN
  INSERT INTO data_versions (user_id, version) VALUES (OLD.id, 1)
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

-- A link's user is its tag's; links that go with their tag find none here, and the tag's own trigger counts.

CREATE TRIGGER data_version_bookmark_tags_insert AFTER INSERT ON bookmark_tags BEGIN
  INSERT INTO data_versions (user_id, version) SELECT user_id, 1 FROM tags WHERE id = NEW.tag_id
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_bookmark_tags_update AFTER UPDATE ON bookmark_tags BEGIN
  INSERT INTO data_versions (user_id, version) SELECT user_id, 1 FROM tags WHERE id = NEW.tag_id
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER data_version_bookmark_tags_delete AFTER DELETE ON bookmark_tags BEGIN
  INSERT INTO data_versions (user_id, version) SELECT user_id, 1 FROM tags WHERE id = OLD.tag_id
  ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
