-- Which instance runs a job, and until when (ms since epoch, real time) its claim holds
-- unless renewed. Several instances share the database: only the holder runs the job and
-- writes its progress; a lease left to lapse (its instance died) lets another take over.

ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
ALTER TABLE jobs ADD COLUMN lease_until INTEGER;
