-- IP blocks after repeated authentication failures. Kept in the database rather than in the
-- server's memory, so that a block survives a restart and the admin command (another process)
-- can list and lift them; the server reads this table on every request.

CREATE TABLE ip_blocks (
  -- the LimitStore's key: block:<client address>
  key TEXT PRIMARY KEY,
  -- ms since epoch (the server's clock) when the block ends by itself
  until INTEGER NOT NULL
);
