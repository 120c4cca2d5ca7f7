import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { LIST_ON_THREAD_FROM } from '../../server/store/sqlite/collections.ts';
import { dataOf } from '../support/expect.ts';
import { type TestPostgres, startPostgres } from '../support/postgres.ts';
import { openRawDb } from '../support/raw-db.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);

/** Names JSON has to escape, or writes as they are in any script. */
const NAMES = ['Café ☕ crème', '日本語のフォルダ', '📚 Reading', 'مرحبا بالعالم', 'Tab\there, a "quote", a \\ and a /', 'Control \u0001\u001f and \u2028 \u007f'];

/** GET /collections exactly as sent, less the request id (each answer has its own). */
async function listBytes(baseUrl: string, token: string): Promise<string> {
  const res = await fetch(`${baseUrl}/collections`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.text()).replace(/"requestId":"[^"]*"/, '"requestId":""');
}

/**
 * The same library on SQLite and, moved over with copy-to-postgres, on PostgreSQL (where the
 * database writes the list's JSON itself): GET /collections must answer the same bytes.
 */
describe('GET /collections on SQLite and on PostgreSQL', () => {
  let cluster: TestPostgres;
  let dataDir: string;
  let onPostgres: TestServer;
  const users: { name: string; token: string; userId: string; sqlite: string }[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'shelf-list-backends-'));
    const t = await startTestServer({ dataDir, databaseUrl: null, raiseLimits: true });
    try {
      const mixed = await t.user();
      await mixedLibrary(t, mixed);
      const large = await t.user();
      await largeTree(t, large.userId);
      const empty = await t.user();
      for (const [name, u] of [['mixed', mixed], ['large', large], ['empty', empty]] as const) {
        users.push({ name, token: u.token, userId: u.userId, sqlite: await listBytes(t.baseUrl, u.token) });
      }
    } finally {
      await t.close();
    }
    const url = await cluster.createDatabase();
    await run('npm', ['run', '--silent', 'copy-to-postgres', '--', '--data', dataDir, '--database', url], { cwd: root });
    onPostgres = await startTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'shelf-list-backends-pg-')), databaseUrl: url });
  }, 120_000);

  afterAll(async () => {
    await onPostgres?.close();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the same bytes for every user: unicode and escaped names, nesting, order, counts, sharing, the trash left out', async () => {
    for (const u of users) {
      const pgBytes = await listBytes(onPostgres.baseUrl, u.token);
      expect({ user: u.name, body: pgBytes }).toEqual({ user: u.name, body: u.sqlite });
    }
    // What the bytes hold, so that two equally wrong answers cannot pass.
    const mixed = (JSON.parse(users[0]!.sqlite) as { data: Collection[] }).data;
    expect(mixed.map((c) => c.name)).toEqual(expect.arrayContaining([...NAMES.map((n) => n.trim()), 'Deep 3']));
    expect(mixed.map((c) => c.name)).not.toContain('Trashed');
    expect(mixed.map((c) => c.name)).not.toContain('Inside the trashed');
    expect(mixed.find((c) => c.name === 'Café ☕ crème')).toMatchObject({ bookmarkCount: 2, isShared: true, color: '#a0b1c2', icon: '📁', parentId: null });
    expect(mixed.find((c) => c.name === 'Deep 3')).toMatchObject({ depth: 3, notes: 'Line one\nline "two"\t\\' });
    expect(JSON.parse(users[1]!.sqlite).data).toHaveLength(LIST_ON_THREAD_FROM + 200);
    expect(JSON.parse(users[2]!.sqlite).data).toEqual([]);
  });

  it('answers as before where the data is outside what PostgreSQL writes itself: a date past the year 9999, a parent cycle', async () => {
    const db = openRawDb({ dataDir: onPostgres.dataDir, databaseUrl: onPostgres.server.deps.config.databaseUrl });
    try {
      const u = await onPostgres.user();
      const far = dataOf(await u.api('POST', '/collections', { body: { name: 'Far' } }), Collection, 201);
      await db.run('UPDATE collections SET created_at = ? WHERE id = ?', 8.64e15, far.id);
      const farList = await listBytes(onPostgres.baseUrl, u.token);
      expect(JSON.parse(farList).data).toEqual([{ ...far, createdAt: '+275760-09-13T00:00:00.000Z' }]);

      const a = dataOf(await u.api('POST', '/collections', { body: { name: 'A' } }), Collection, 201);
      const b = dataOf(await u.api('POST', '/collections', { body: { name: 'B', parentId: a.id } }), Collection, 201);
      await db.run('UPDATE collections SET created_at = 0 WHERE id = ?', far.id);
      await db.run('UPDATE collections SET parent_id = ? WHERE id = ?', b.id, a.id);
      const cycle = JSON.parse(await listBytes(onPostgres.baseUrl, u.token)).data as Collection[];
      expect(cycle).toEqual(await onPostgres.server.deps.store.collections.list(u.userId));
      // A and B each count the other as their one ancestor; which comes first follows their random ids.
      expect(cycle.map((c) => [c.name, c.depth]).sort()).toEqual([['A', 1], ['B', 1], ['Far', 0]]);
    } finally {
      await db.close();
    }
  });
});

/** Collections made through the API as a user would: nested, reordered, moved, coloured, shared, some trashed; bookmarks in some. */
async function mixedLibrary(t: TestServer, u: TestUser): Promise<void> {
  const make = async (body: Record<string, unknown>) => dataOf(await u.api('POST', '/collections', { body }), Collection, 201);
  const made: Collection[] = [];
  for (const name of NAMES) {
    made.push(await make({ name: ` ${name} ` }));
    await t.advance(1_001);
  }
  const [cafe, japanese, reading] = made as [Collection, Collection, Collection];
  expect((await u.api('PATCH', `/collections/${cafe.id}`, { body: { color: '#a0b1c2', icon: '📁' } })).status).toBe(200);
  expect((await u.api('PUT', `/collections/${cafe.id}/share`, { body: { shared: true } })).status).toBe(200);
  // Siblings made in the same millisecond, then one moved to the front: order, not creation, places them.
  for (const name of ['Same ms 1', 'Same ms 2', 'Same ms 3']) await make({ name, parentId: japanese.id });
  const last = (await make({ name: 'Same ms 4', parentId: japanese.id })).id;
  expect((await u.api('PATCH', `/collections/${last}`, { body: { order: 0 } })).status).toBe(200);
  let parent = reading.id;
  for (let depth = 1; depth <= 3; depth++) parent = (await make({ name: `Deep ${depth}`, parentId: parent })).id;
  expect((await u.api('PATCH', `/collections/${parent}`, { body: { notes: 'Line one\nline "two"\t\\' } })).status).toBe(200);
  // A move up the tree: its depth and its parent change.
  expect((await u.api('PATCH', `/collections/${japanese.id}`, { body: { parentId: reading.id } })).status).toBe(200);
  const trashed = await make({ name: 'Trashed' });
  await make({ name: 'Inside the trashed', parentId: trashed.id });
  expect((await u.api('DELETE', `/collections/${trashed.id}`)).status).toBe(200);
  const saved: Bookmark[] = [];
  for (let i = 0; i < 3; i++) {
    const body = { url: `https://example.com/${i}`, title: `Page ${i}`, description: '', collectionId: cafe.id };
    saved.push(dataOf(await u.api('POST', '/bookmarks', { body }), Bookmark, 201));
  }
  // A trashed bookmark is not counted.
  expect((await u.api('DELETE', `/bookmarks/${saved[0]!.id}`)).status).toBe(200);
}

/** A tree large enough for SQLite's list thread, written by SQL: chains 4 deep, unicode names, times with milliseconds. */
async function largeTree(t: TestServer, userId: string): Promise<void> {
  const db = openRawDb({ dataDir: t.dataDir, databaseUrl: null });
  try {
    await db.run(
      `INSERT INTO collections (id, user_id, name, parent_id, share_slug, sort_order, created_at, updated_at)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${LIST_ON_THREAD_FROM + 199})
       SELECT 'col_big_' || i, ?, 'Dossier é ' || i || ' 🗂', CASE WHEN i % 4 = 0 THEN NULL ELSE 'col_big_' || (i - 1) END,
         'slug_big_' || i, (i * 7) % 5, 1764000000000 + i * 1001 + 7, 0
       FROM n`,
      userId,
    );
  } finally {
    await db.close();
  }
}
