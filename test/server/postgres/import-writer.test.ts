import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_TAGS_PER_USER } from '../../../lib/api/bookmarks.ts';
import type { ImportEntry, ImportWriter, JobRecord, JobsStore } from '../../../server/store/jobs.ts';
import { PgJobs } from '../../../server/store/postgres/jobs.ts';
import { SqliteJobs } from '../../../server/store/sqlite/jobs.ts';
import { BACKENDS, type BackendDb, addUser, count, freshDb, insertTags, withCluster } from './library-fixtures.ts';

withCluster();

const NOW = 1_750_000_000_000;
const OWNER = 'instance-a';

/** An entry of a file as ImportRun hands it to the writer. */
const entry = (url: string, tags: string[] = [], collectionPath: string[] = []): ImportEntry => ({
  ok: true, url, title: `Title of ${url}`, description: '', note: '', type: 'link', isFavorite: false, tags, collectionPath, createdAt: NOW - 1000,
});
const unreadable: ImportEntry = { ok: false, reason: 'no URL' };
const url = (n: number) => `https://batch.example/${n}`;

/**
 * The import writer of each backend, batch by batch: what a batch of 50 writes, counts and
 * refuses, entry by entry in file order, is the same on both (PostgreSQL's writes a batch in a
 * few set-based statements, SQLite's a row at a time), and a batch commits whole or not at all.
 */
describe.each(BACKENDS)('%s import writer', (backend) => {
  let db: BackendDb;
  let jobs: JobsStore;
  let user: string;
  let job: JobRecord;
  let writer: ImportWriter;

  beforeEach(async () => {
    db = await freshDb(backend);
    jobs = db.kind === 'sqlite' ? new SqliteJobs(db.db) : new PgJobs(db.db);
    user = await addUser(db);
    job = await jobs.create({ userId: user, type: 'import', format: null }, NOW);
    await db.run("UPDATE jobs SET status = 'running', lease_owner = ? WHERE id = ?", [OWNER, job.id]);
    writer = await jobs.importWriter({ ...job, status: 'running', leaseOwner: OWNER });
  });

  /** The user's bookmarks in insertion order: URL, folder path and tag names. */
  const library = async () => {
    const rows = await db.all<{ id: string; url: string; collection_id: string | null }>(
      'SELECT id, url, collection_id FROM bookmarks WHERE user_id = ? AND deleted_at IS NULL ORDER BY seq',
      [user],
    );
    const folders = new Map(
      (await db.all<{ id: string; name: string; parent_id: string | null }>('SELECT id, name, parent_id FROM collections WHERE user_id = ?', [user])).map(
        (c) => [c.id, c],
      ),
    );
    const pathOf = (id: string | null): string => {
      const c = id === null ? undefined : folders.get(id);
      return c === undefined ? '' : `${pathOf(c.parent_id)}/${c.name}`;
    };
    const links = await db.all<{ bookmark_id: string; name: string }>(
      'SELECT l.bookmark_id, t.name FROM bookmark_tags l JOIN tags t ON t.id = l.tag_id ORDER BY l.seq',
    );
    return rows.map((b) => ({ url: b.url, path: pathOf(b.collection_id), tags: links.filter((l) => l.bookmark_id === b.id).map((l) => l.name) }));
  };

  const jobCounts = async () => {
    const [row] = await db.all<{ position: number; imported: number; skipped: number; duplicates: number }>(
      'SELECT position, imported, skipped, duplicates FROM jobs WHERE id = ?',
      [job.id],
    );
    return { ...row };
  };

  it('writes duplicates inside a batch and across batches, shared tags, and a refused row in the middle as SQLite does', async () => {
    // Already the user's: a trashed bookmark (still a duplicate), a folder "Work" and a tag "shared"; the account two tags short of the cap.
    await db.run(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, domain, metadata_status, link_status, last_checked_at, created_at, updated_at, deleted_at)
       VALUES ('bm_old', ?, ?, ?, 'Old', 'batch.example', 'complete', 'unchecked', 0, 0, 0, 1)`,
      [user, url(0), url(0)],
    );
    await db.run("INSERT INTO collections (id, user_id, name, share_slug, sort_order, created_at, updated_at) VALUES ('col_work', ?, 'Work', 'slug-work', 4, 0, 0)", [user]);
    await db.run("INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES ('tag_shared', ?, 'shared', 'shared', 0)", [user]);
    await insertTags(db, user, 'filler', MAX_TAGS_PER_USER - 3);

    const first: ImportEntry[] = Array.from({ length: 50 }, (_, i) => entry(url(100 + i), ['shared'], ['work', 'Sub']));
    first[0] = entry(url(0), ['shared']); // trashed already: a duplicate
    first[1] = entry(url(1), ['shared', 'new/child'], ['work', 'Sub']); // the two tags the cap leaves
    first[5] = unreadable;
    first[10] = entry(url(10), ['NEW/CHILD']);
    first[20] = entry(url(10), ['other']); // the same URL again in the batch: a duplicate, its tag not made
    first[25] = entry(url(25), ['one too many']); // past the cap: refused, its URL not taken
    first[30] = entry(url(25), ['shared'], ['Elsewhere']); // so this one imports
    expect(await writer.writeBatch(first, { position: 50, progress: 40 }, NOW)).toBe(true);

    const second = [entry(url(1)), entry(url(100 + 7)), entry(url(25)), entry(url(200), ['new']), entry(url(200))];
    expect(await writer.writeBatch(second, { position: 55, progress: 99 }, NOW + 1)).toBe(true);

    expect(await jobCounts()).toEqual({ position: 55, imported: 46 + 1, skipped: 2, duplicates: 2 + 4 });
    expect(writer.rejected()).toEqual([
      { reason: `${url(25)}: this needs 1 new tag and the account has ${MAX_TAGS_PER_USER} of at most ${MAX_TAGS_PER_USER} tags; delete or merge tags first` },
    ]);

    const imported = await library();
    const expected = [
      { url: url(1), path: '/Work/Sub', tags: ['shared', 'new/child'] },
      ...[2, 3, 4, 6, 7, 8, 9].map((i) => ({ url: url(100 + i), path: '/Work/Sub', tags: ['shared'] })),
      { url: url(10), path: '', tags: ['new/child'] },
      ...Array.from({ length: 9 }, (_, k) => ({ url: url(111 + k), path: '/Work/Sub', tags: ['shared'] })),
      ...Array.from({ length: 4 }, (_, k) => ({ url: url(121 + k), path: '/Work/Sub', tags: ['shared'] })),
      ...Array.from({ length: 4 }, (_, k) => ({ url: url(126 + k), path: '/Work/Sub', tags: ['shared'] })),
      { url: url(25), path: '/Elsewhere', tags: ['shared'] },
      ...Array.from({ length: 19 }, (_, k) => ({ url: url(131 + k), path: '/Work/Sub', tags: ['shared'] })),
      { url: url(200), path: '', tags: ['new'] },
    ];
    expect(imported).toEqual(expected);

    // Made once each, whatever the number of rows naming them: the folders after the existing ones, the tags with their first spelling.
    const folders = await db.all<{ name: string; sort_order: number }>('SELECT name, sort_order FROM collections WHERE user_id = ? ORDER BY seq', [user]);
    expect(folders).toEqual([{ name: 'Work', sort_order: 4 }, { name: 'Sub', sort_order: 0 }, { name: 'Elsewhere', sort_order: 5 }]);
    expect(await count(db, 'SELECT COUNT(*) FROM tags WHERE user_id = ?', [user])).toBe(MAX_TAGS_PER_USER);
    const made = await db.all<{ name: string; active_count: number }>(
      "SELECT name, active_count FROM tags WHERE user_id = ? AND name NOT LIKE 'filler%' ORDER BY seq",
      [user],
    );
    expect(made).toEqual([{ name: 'shared', active_count: 45 }, { name: 'new', active_count: 1 }, { name: 'new/child', active_count: 2 }]);
    // The counts the triggers keep, as a fresh count gives them.
    expect(await db.all('SELECT total, unsorted, no_tags FROM bookmark_stats WHERE user_id = ?', [user])).toEqual([{ total: 47, unsorted: 2, no_tags: 0 }]);
    expect(await db.all('SELECT name, active_count FROM collections WHERE user_id = ? ORDER BY seq', [user])).toEqual([
      { name: 'Work', active_count: 0 },
      { name: 'Sub', active_count: 44 },
      { name: 'Elsewhere', active_count: 1 },
    ]);
  });

  it('makes the folders of a slice once each, parents first, matching existing ones by name in any case', async () => {
    await db.run("INSERT INTO collections (id, user_id, name, share_slug, sort_order, created_at, updated_at) VALUES ('col_work', ?, 'Work', 'slug-work', 2, 0, 0)", [user]);
    await db.run("INSERT INTO collections (id, user_id, name, share_slug, sort_order, parent_id, created_at, updated_at) VALUES ('col_a', ?, 'A', 'slug-a', 7, 'col_work', 0, 0)", [user]);
    const attributes = { icon: '📁', color: '#123456', notes: 'made' };
    await writer.ensureCollections(
      [
        { path: ['WORK'], ...attributes },
        { path: ['work', 'B'], ...attributes },
        { path: ['Work', 'a', 'Deep'], ...attributes },
        { path: ['New'], icon: '', color: '', notes: '' },
        { path: ['new', 'Child'], ...attributes },
        { path: ['Work', 'b'], icon: 'x', color: '', notes: '' },
      ],
      NOW,
    );
    const rows = await db.all<{ name: string; parent: string | null; sort_order: number; icon: string; notes: string }>(
      `SELECT c.name, p.name AS parent, c.sort_order, c.icon, c.notes FROM collections c LEFT JOIN collections p ON p.id = c.parent_id
       WHERE c.user_id = ? ORDER BY c.seq`,
      [user],
    );
    expect(rows).toEqual([
      { name: 'Work', parent: null, sort_order: 2, icon: '', notes: '' },
      { name: 'A', parent: 'Work', sort_order: 7, icon: '', notes: '' },
      { name: 'B', parent: 'Work', sort_order: 8, icon: '📁', notes: 'made' },
      { name: 'Deep', parent: 'A', sort_order: 0, icon: '📁', notes: 'made' },
      { name: 'New', parent: null, sort_order: 3, icon: '', notes: '' },
      { name: 'Child', parent: 'New', sort_order: 0, icon: '📁', notes: 'made' },
    ]);
  });

  it('commits nothing of a batch whose job stopped meanwhile, and answers false', async () => {
    expect(await writer.writeBatch([entry(url(1), ['kept'], ['Kept'])], { position: 1, progress: 10 }, NOW)).toBe(true);
    await db.run("UPDATE jobs SET status = 'failed' WHERE id = ?", [job.id]);
    const batch = [entry(url(2), ['t1', 'kept'], ['Kept', 'Inner']), unreadable, entry(url(3), ['t2/t3'], ['Other'])];
    expect(await writer.writeBatch(batch, { position: 4, progress: 20 }, NOW)).toBe(false);

    expect((await library()).map((b) => b.url)).toEqual([url(1)]);
    expect(await count(db, 'SELECT COUNT(*) FROM tags WHERE user_id = ?', [user])).toBe(1);
    expect(await count(db, 'SELECT COUNT(*) FROM collections WHERE user_id = ?', [user])).toBe(1);
    expect(await jobCounts()).toEqual({ position: 1, imported: 1, skipped: 0, duplicates: 0 });
  });
});
