import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '../support/expect.ts';
import { type TestPostgres, startPostgres } from '../support/postgres.ts';
import { type Api, type TestServer, apiFor, startTestServer } from '../support/server.ts';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { CoverSaved, StoredFile, UploadReservation } from '../../lib/api/covers.ts';
import { png } from '../support/images.ts';
import { copyMain } from '../../server/copy/main.ts';
import { commandInProcess } from '../support/admin-command.ts';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command as a self-hoster runs it; its exit code, never a throw. */
async function copy(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'copy-to-postgres', '--', ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as Outcome;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * As copy, through the command's own entry (copyMain) in this process: the same command line and output, without
 * the seconds a process started through tsx takes. A whole copy and a failed one still go through npm run.
 */
const copyInProcess = (...args: string[]): Promise<Outcome> => commandInProcess(copyMain, args);

/** Every answer the API gives about a library, to compare one backend's with the other's. */
const READS = [
  '/bookmarks?limit=100',
  '/bookmarks?limit=3&sortBy=title',
  '/bookmarks?limit=100&sortBy=oldest&isFavorite=true',
  '/bookmarks/stats',
  '/bookmarks/domains',
  '/bookmarks/duplicates',
  '/bookmarks/search?q=rare',
  '/bookmarks/trash',
  '/collections',
  '/tags',
  '/smart-folders',
];

async function readAll(api: Api, extra: string[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const path of [...READS, ...extra]) {
    const { status, body } = await api('GET', path);
    // Each answer carries its own request id; the rest must be the same.
    answers[path] = { status, body: typeof body === 'object' && body !== null ? { ...body, meta: undefined } : body };
  }
  return answers;
}

describe('copy-to-postgres', () => {
  let cluster: TestPostgres;
  let dataDir: string;
  let token: string;
  let extraReads: string[];
  let before: Record<string, unknown>;
  let cover: Uint8Array<ArrayBuffer>;

  beforeAll(async () => {
    cluster = await startPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'shelf-copy-'));
    const t: TestServer = await startTestServer({ dataDir, databaseUrl: null });
    try {
      const u = await t.user();
      token = u.token;
      const api = u.api;
      const reading = dataOf(await api('POST', '/collections', { body: { name: 'Reading' } }), Collection, 201);
      const inner = dataOf(await api('POST', '/collections', { body: { name: 'Deep', parentId: reading.id } }), Collection, 201);
      const saved: Bookmark[] = [];
      for (let i = 0; i < 12; i++) {
        const body = {
          url: `https://site${i % 4}.example/page/${i}`,
          title: i === 7 ? 'A rare find' : `Page ${i}`,
          description: '',
          tags: i % 3 === 0 ? ['work/urgent', 'later'] : i % 3 === 1 ? ['later'] : [],
          collectionId: i % 2 === 0 ? reading.id : i % 5 === 0 ? inner.id : undefined,
          isFavorite: i % 4 === 1,
        };
        saved.push(dataOf(await api('POST', '/bookmarks', { body }), Bookmark, 201));
      }
      await api('POST', '/bookmarks', { body: { url: 'https://www.site0.example/page/0/', title: 'Again', description: '' } });
      await api('DELETE', `/bookmarks/${saved[3]!.id}`);
      const folder = await api('POST', '/smart-folders', { body: { name: 'Later', rules: { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'later' }] } } });
      const folderId = (folder.body as { data: { id: string } }).data.id;
      // A cover: its bytes must move too.
      cover = png(4, 3);
      const { uploadUrl, reservationId } = dataOf(await api('POST', `/bookmarks/${saved[0]!.id}/cover/upload-url`), UploadReservation, 201);
      const uploaded = await fetch(uploadUrl, { method: 'POST', body: cover, headers: { 'Content-Type': 'image/png' } });
      const { storageId } = StoredFile.parse(await uploaded.json());
      dataOf(await api('POST', `/bookmarks/${saved[0]!.id}/cover`, { body: { storageId, reservationId } }), CoverSaved);
      extraReads = [`/smart-folders/${folderId}/bookmarks?limit=50`, `/bookmarks/${saved[0]!.id}`, `/collections/${reading.id}/bookmarks?limit=50`];
      before = await readAll(api, extraReads);
    } finally {
      await t.close();
    }
  });

  afterAll(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies a library so that the server on PostgreSQL answers exactly as it did on SQLite, covers included', async () => {
    const url = await cluster.createDatabase();
    const out = await copy('--data', dataDir, '--database', url);
    expect(out.stderr).not.toMatch(/error/i);
    expect(out.code).toBe(0);
    const summary = JSON.parse(out.stdout) as { copied: Record<string, number>; files: { files: number; bytes: number } };
    expect(summary.copied).toMatchObject({ users: 1, tokens: 1, collections: 2, bookmarks: 13, tags: 3, smart_folders: 1 });
    expect(summary.files).toEqual({ files: 1, bytes: cover.byteLength });

    const t = await startTestServer({ databaseUrl: url });
    try {
      const api = apiFor(t.baseUrl, { token, ip: '10.200.0.1' });
      expect(await readAll(api, extraReads)).toEqual(before);
      const bookmark = (before[extraReads[1]!] as { body: { data: { coverImage: string } } }).body.data;
      // The stored URL names the old server's origin; the file is served under the same path here.
      const served = await fetch(t.server.origin + new URL(bookmark.coverImage).pathname);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(cover);
      // New rows carry on after the copied ones rather than colliding with them.
      const res = await api('POST', '/bookmarks', { body: { url: 'https://after.example/', title: 'After', description: '' } });
      expect(res.status).toBe(201);
    } finally {
      await t.close();
    }
  });

  it('refuses to copy into a database that holds a library, and changes nothing there', async () => {
    const url = await cluster.createDatabase();
    expect((await copyInProcess('--data', dataDir, '--database', url)).code).toBe(0);
    const client = new pg.Client(url);
    await client.connect();
    try {
      const count = async () => (await client.query<{ n: string }>('SELECT count(*) AS n FROM bookmarks')).rows[0]!.n;
      const rows = await count();
      const again = await copyInProcess('--data', dataDir, '--database', url);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already holds a library; copy into an empty one');
      expect(await count()).toBe(rows);
    } finally {
      await client.end();
    }
  });

  it('refuses bad flags with a usage line and exit code 2', async () => {
    const url = await cluster.createDatabase();
    const missingData = await copyInProcess('--database', url);
    expect(missingData.code).toBe(2);
    expect(missingData.stderr).toContain('--data is required');
    const noLibrary = await copyInProcess('--data', join(dataDir, 'nowhere'), '--database', url);
    expect(noLibrary.code).toBe(2);
    expect(noLibrary.stderr).toContain('holds no shelf.db');
    const badUrl = await copyInProcess('--data', dataDir, '--database', 'mysql://x/y');
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--database must be a URL like postgres://');
    const unknown = await copyInProcess('--data', dataDir, '--database', url, '--force');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: npm run --silent copy-to-postgres');
  });

  it('fails with exit code 1 and a clear message when PostgreSQL cannot be reached', async () => {
    const out = await copy('--data', dataDir, '--database', 'postgres://shelf@127.0.0.1:1/none');
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/could not open the database at postgres:\/\/shelf@127\.0\.0\.1:1\/none: .*ECONNREFUSED/);
  });
});
