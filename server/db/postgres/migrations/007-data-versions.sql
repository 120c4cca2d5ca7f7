-- Each user's data version (issue 21), as SQLite's 013-data-versions.sql: moved by every write to what
-- that user's cached answers are made from, in the write's own transaction, on any instance. Its value
-- is the id of the last transaction that wrote the user's data, so a transaction moves it once however
-- many rows it writes (the triggers after the first find it moved and write nothing).
--
-- The triggers are deferred to the commit: a user's version row is then the last lock a transaction
-- takes, so two transactions writing one user's data wait for each other there and never deadlock
-- over it (taken at each statement, it would be held while the transaction goes on to lock rows the
-- other one holds).

CREATE TABLE data_versions (
  user_id TEXT COLLATE "C" PRIMARY KEY,
  version xid8 NOT NULL
);

CREATE FUNCTION shelf_data_version_moved(uid TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF uid IS NULL OR EXISTS (SELECT 1 FROM data_versions WHERE user_id = uid AND version = pg_current_xact_id()) THEN
    RETURN;
  END IF;
  INSERT INTO data_versions AS d (user_id, version) VALUES (uid, pg_current_xact_id())
  ON CONFLICT (user_id) DO UPDATE SET version = excluded.version WHERE d.version <> excluded.version;
END $$;

CREATE FUNCTION shelf_data_version_by_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM shelf_data_version_moved(CASE TG_OP WHEN 'DELETE' THEN OLD.user_id ELSE NEW.user_id END);
  RETURN NULL;
END $$;

CREATE FUNCTION shelf_data_version_of_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM shelf_data_version_moved(CASE TG_OP WHEN 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END $$;

-- A link's user is its tag's; links that went with their tag find none here, and the tag's own trigger counts.
CREATE FUNCTION shelf_data_version_by_tag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM shelf_data_version_moved((SELECT user_id FROM tags WHERE id = CASE TG_OP WHEN 'DELETE' THEN OLD.tag_id ELSE NEW.tag_id END));
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER data_version AFTER INSERT OR UPDATE OR DELETE ON collections
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shelf_data_version_by_user();
CREATE CONSTRAINT TRIGGER data_version AFTER INSERT OR UPDATE OR DELETE ON bookmarks
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shelf_data_version_by_user();
CREATE CONSTRAINT TRIGGER data_version AFTER INSERT OR UPDATE OR DELETE ON tags
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shelf_data_version_by_user();
CREATE CONSTRAINT TRIGGER data_version AFTER INSERT OR UPDATE OR DELETE ON smart_folders
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shelf_data_version_by_user();
CREATE CONSTRAINT TRIGGER data_version AFTER INSERT OR UPDATE OR DELETE ON stored_files
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shelf_data_version_by_user();
CREATE CONSTRAINT TRIGGER data_version AFTER UPDATE OR DELETE ON users
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shelf_data_version_of_user();
CREATE CONSTRAINT TRIGGER data_version AFTER INSERT OR UPDATE OR DELETE ON bookmark_tags
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shelf_data_version_by_tag();
