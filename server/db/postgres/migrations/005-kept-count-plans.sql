-- The kept counts' triggers (001) planned so that their cost does not depend on the planner's
-- statistics, which lag behind a table that grows fast from nearly nothing (a new database, a
-- first import): while they still said bookmarks was nearly empty, 001's tag-link triggers
-- joined the statement's links to all of the user's active bookmarks (a partial index as large
-- as the library) for every link, counting each bookmark's links again each time, so that a
-- statement linking 100 tags to 50 new bookmarks took 200 ms once 10,000 were in, and more with
-- every batch; and a new bookmark's "has it no tag yet" read all of bookmark_tags.
--
-- Every statement of these triggers concerns the rows just written: it needs a few look-ups by
-- key per row, which a sequential scan is never better at, so none is chosen (what makes one
-- look cheap is a stale count of the table's pages). The tag-link triggers read each link's
-- bookmark by id only, in a scalar subquery (which the planner never turns into a join), and
-- count the same as 001's.
ALTER FUNCTION shelf_bookmark_added() SET enable_seqscan = off;
ALTER FUNCTION shelf_bookmark_gone() SET enable_seqscan = off;
ALTER FUNCTION shelf_bookmark_changed() SET enable_seqscan = off;

CREATE OR REPLACE FUNCTION shelf_tags_linked() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
BEGIN
  UPDATE tags t SET active_count = t.active_count + n.count
  FROM (SELECT l.tag_id, count(*) AS count FROM linked l
        WHERE (SELECT b.deleted_at IS NULL FROM bookmarks b WHERE b.id = l.bookmark_id)
        GROUP BY l.tag_id) n
  WHERE t.id = n.tag_id;
  -- A bookmark whose links are all of this statement had none before: it leaves no_tags.
  UPDATE bookmark_stats s SET no_tags = s.no_tags - n.count
  FROM (SELECT a.user_id, count(*) AS count
        FROM (SELECT l.bookmark_id, count(*) AS added,
                (SELECT CASE WHEN b.deleted_at IS NULL THEN b.user_id END FROM bookmarks b WHERE b.id = l.bookmark_id) AS user_id
              FROM linked l GROUP BY l.bookmark_id) a
        WHERE a.user_id IS NOT NULL AND (SELECT count(*) FROM bookmark_tags x WHERE x.bookmark_id = a.bookmark_id) = a.added
        GROUP BY a.user_id) n
  WHERE s.user_id = n.user_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION shelf_tags_unlinked() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
BEGIN
  UPDATE tags t SET active_count = t.active_count - n.count
  FROM (SELECT l.tag_id, count(*) AS count FROM unlinked l
        WHERE (SELECT b.deleted_at IS NULL FROM bookmarks b WHERE b.id = l.bookmark_id)
        GROUP BY l.tag_id) n
  WHERE t.id = n.tag_id;
  UPDATE bookmark_stats s SET no_tags = s.no_tags + n.count
  FROM (SELECT a.user_id, count(*) AS count
        FROM (SELECT DISTINCT l.bookmark_id,
                (SELECT CASE WHEN b.deleted_at IS NULL THEN b.user_id END FROM bookmarks b WHERE b.id = l.bookmark_id) AS user_id
              FROM unlinked l) a
        WHERE a.user_id IS NOT NULL AND (SELECT 1 FROM bookmark_tags x WHERE x.bookmark_id = a.bookmark_id LIMIT 1) IS NULL
        GROUP BY a.user_id) n
  WHERE s.user_id = n.user_id;
  RETURN NULL;
END $$;
