import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { SqliteAccounts } from '../../server/store/sqlite/accounts.ts';
import { openSqliteStore } from '../../server/store/sqlite/index.ts';
import { openRawDb } from '../support/raw-db.ts';
import { countedAfresh } from './kept-counts-fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'shelf-migration-011-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A library written before migration 011: its index and counts are filled when the migration runs. */
async function libraryBefore011(): Promise<string> {
  const db = openDatabase(dir, { migrateBefore: '011' });
  try {
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('bookmarks_search', 'bookmark_stats')").all()).toEqual([]);
    const userId = (await new SqliteAccounts(db).createUser({ name: 'Old', email: 'old@example.com', plan: 'pro' }, 0)).id;
    db.prepare("INSERT INTO collections (id, user_id, name, share_slug, created_at, updated_at) VALUES ('col_a', ?, 'A', 'slug-a', 0, 0)").run(userId);
    db.prepare("INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES ('tag_a', ?, 'a', 'a', 0)").run(userId);
    const insert = db.prepare(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, type, is_favorite, collection_id, domain, metadata_status, link_status,
         last_checked_at, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'complete', 'unchecked', 0, ?, ?, ?)`,
    );
    const rows: [string, string, string, string, number, string | null, number | null][] = [
      ['one.example/a', 'Новости Москвы', 'link', 'one.example', 1, 'col_a', null],
      ['one.example/a', 'Same page again', 'article', 'one.example', 0, null, null],
      ['two.example/b', 'Ελληνικά', 'video', 'two.example', 0, 'col_a', null],
      ['two.example/c', 'Trashed café', 'link', 'two.example', 1, 'col_a', 5],
    ];
    rows.forEach(([key, title, type, domain, favorite, collection, deletedAt], i) =>
      insert.run(`bm_${i}`, userId, `https://${key}`, key, title, type, favorite, collection, domain, i, i, deletedAt),
    );
    db.prepare("INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES ('bm_0', 'tag_a'), ('bm_3', 'tag_a')").run();
    return userId;
  } finally {
    db.close();
  }
}

it('fills the search index and the kept counts of a library saved before it', async () => {
  const userId = await libraryBefore011();
  const store = openSqliteStore(dir);
  const db = openDatabase(dir);
  try {
    const raw = openRawDb({ dataDir: dir, databaseUrl: null });
    const fresh = await countedAfresh(raw, userId).finally(() => raw.close());
    expect(fresh.stats.total).toBe(3);
    expect(await store.bookmarks.stats(userId)).toEqual(fresh.stats);
    expect(await store.bookmarks.domains(userId)).toEqual(fresh.domains);
    expect(new Map((await store.collections.list(userId)).map((c) => [c.id, c.bookmarkCount]))).toEqual(fresh.perCollection);
    const groups = (await store.bookmarks.duplicates(userId)).groups;
    expect(groups.flatMap((g) => g.bookmarks.map((b) => [g.normalizedUrl, b.id]))).toEqual(fresh.duplicates);
    expect(groups).toHaveLength(1);
    expect((await store.bookmarks.search(userId, 'МОСКВ', 50)).map((b) => b.id)).toEqual(['bm_0']);
    expect((await store.bookmarks.search(userId, 'café', 50)).map((b) => b.id)).toEqual([]);
    expect(() => db.exec("INSERT INTO bookmarks_search (bookmarks_search, rank) VALUES ('integrity-check', 1)")).not.toThrow();
  } finally {
    db.close();
    store.close();
  }
});
