import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection, MAX_COLLECTION_DEPTH } from '../../lib/api/collections.ts';
import { ImportReserved, Job, JobCreated } from '../../lib/api/jobs.ts';
import { Tag } from '../../lib/api/tags.ts';
import { HOUR, MINUTE } from '../../server/clock.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { openRawDb } from '../support/raw-db.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { bytesKept } from '../support/stored-bytes.ts';
import { allBookmarks, collectionPaths, importFile, settledJob, startImportOf, upload } from './jobs-fixtures.ts';
import { GENERATED_FILES } from '../support/import-files.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});


/** POST /import/* allows 2 requests a minute per user and endpoint. */
const nextMinute = (): Promise<number> => t.advance(MINUTE);

async function reserveAndUpload(u: TestUser, content: string | Buffer): Promise<{ jobId: string; storageId: string }> {
  const { jobId, uploadUrl } = dataOf(await u.api('POST', '/import/reserve'), ImportReserved, 201);
  const uploaded = await upload(uploadUrl, content);
  expect(uploaded.status).toBe(201);
  return { jobId, storageId: (uploaded.body as { storageId: string }).storageId };
}

const byUrl = (bookmarks: Bookmark[]): Map<string, Bookmark> => new Map(bookmarks.map((b) => [b.url, b]));

describe('POST /import/reserve', () => {
  it('creates a pending import job and an absolute upload URL on the storage service', async () => {
    const u = await t.user();
    const { jobId, uploadUrl } = dataOf(await u.api('POST', '/import/reserve'), ImportReserved, 201);
    expect(uploadUrl).toMatch(new RegExp(`^${t.server.origin}/storage/uploads/[A-Za-z0-9_-]{43}$`));
    const job = dataOf(await u.api('GET', `/jobs/${jobId}`), Job);
    expect(job).toMatchObject({ id: jobId, type: 'import', status: 'pending', progress: 0, completedAt: null });
    expect(job.result).toBeUndefined();
    expect(job.errorMessage).toBeUndefined();
    expect(job.expiresAt).toBeUndefined();
  });

  it('refuses an upload over 5 MB with 413', async () => {
    const u = await t.user();
    const { uploadUrl } = dataOf(await u.api('POST', '/import/reserve'), ImportReserved, 201);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
    const res = await upload(uploadUrl, big);
    expect(res).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
  });
});

describe('importing', () => {
  // A Shelf JSON file controls every field; see the comments for what each entry tests.
  const file = JSON.stringify({
    version: 1,
    collections: [{ path: ['Reading'], icon: '📚', color: 'red', notes: 'from the file' }, { path: ['New folder'], icon: '🆕', color: 'teal', notes: 'kept' }],
    bookmarks: [
      // imported, into the existing "Reading" (matched case-insensitively), tags deduplicated regardless of case
      { url: 'https://a.example/1', title: 'One', collectionPath: ['reading'], tags: ['News', 'news', 'x/y'], createdAt: '2020-01-02T03:04:05.678Z', isFavorite: true, type: 'article', note: 'n' },
      // the same URL again in the file: the first wins
      { url: 'https://a.example/1', title: 'One again' },
      // in the library already (active, then trashed): neither imported nor changed
      { url: 'https://existing.example/', title: 'New title from the file' },
      { url: 'https://trashed.example/', title: 'Trashed one' },
      // not http(s): skipped by the import (the parser takes ftp)
      { url: 'ftp://files.example/x', title: 'FTP' },
      // skipped by the parser
      { url: 'javascript:alert(1)', title: 'Script' },
      { url: 'https://c.example/', type: 'podcast' },
      // a title past the API's 2,000 characters is cut, not refused
      { url: 'https://b.example/long', title: 'x'.repeat(3000) },
      // deeper than collections nest: lands at the deepest allowed level
      { url: 'https://b.example/deep', collectionPath: Array.from({ length: 12 }, (_, i) => `L${i + 1}`) },
      // no date: the import's time
      { url: 'https://b.example/nodate', createdAt: null },
      // the library's "Old" is trashed, so the file's "Old" is created anew
      { url: 'https://b.example/old', collectionPath: ['Old'] },
    ],
  });

  it('imports, counts duplicates and skipped entries, keeps the fields, and matches collections', async () => {
    const u = await t.user();
    const reading = dataOf(await u.api('POST', '/collections', { body: { name: 'Reading', icon: '📖' } }), Collection, 201);
    const old = dataOf(await u.api('POST', '/collections', { body: { name: 'Old' } }), Collection, 201);
    expect((await u.api('DELETE', `/collections/${old.id}`)).status).toBe(200);
    const existing = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://existing.example/', title: 'Mine', description: '' } }), Bookmark, 201);
    const trashed = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://trashed.example/', title: 'Gone', description: '' } }), Bookmark, 201);
    expect((await u.api('DELETE', `/bookmarks/${trashed.id}`)).status).toBe(200);

    const { jobId, storageId } = await reserveAndUpload(u, file);
    const started = dataOf(await u.api('POST', '/import/start', { body: { jobId, storageId } }), Job);
    expect(started).toMatchObject({ id: jobId, type: 'import', status: 'running' });
    const importedAt = t.server.deps.clock.now();

    const job = await settledJob(t, u, jobId);
    expect(job).toMatchObject({ status: 'completed', progress: 100, format: 'shelf-json', result: { imported: 5, skipped: 3, duplicates: 3 } });
    expect(job.errorMessage).toBeUndefined();
    expect(job.completedAt).not.toBeNull();
    expect(job.skippedReasons!.map((r) => r.reason).join('\n')).toMatch(/javascript[\s\S]*type[\s\S]*ftp:\/\/files\.example\/x: not an http or https URL/);
    // The import file goes once the job ends.
    expect(await bytesKept(t, storageId)).toBe(false);

    const bookmarks = byUrl(await allBookmarks(u.api));
    const { collections, paths } = await collectionPaths(u.api);
    expect([...bookmarks.keys()].sort()).toEqual([
      'https://a.example/1',
      'https://b.example/deep',
      'https://b.example/long',
      'https://b.example/nodate',
      'https://b.example/old',
      'https://existing.example/',
    ]);
    expect(bookmarks.get('https://a.example/1')).toMatchObject({
      title: 'One',
      collectionId: reading.id,
      tags: ['News', 'x/y'],
      createdAt: '2020-01-02T03:04:05.678Z',
      lastCheckedAt: '2020-01-02T03:04:05.678Z',
      isFavorite: true,
      type: 'article',
      note: 'n',
      domain: 'a.example',
      metadataStatus: 'skipped',
      linkStatus: 'unchecked',
    });
    expect(bookmarks.get('https://existing.example/')).toEqual(dataOf(await u.api('GET', `/bookmarks/${existing.id}`), Bookmark));
    expect(bookmarks.get('https://existing.example/')!.title).toBe('Mine');
    expect(dataOf(await u.api('GET', `/bookmarks/${trashed.id}`), Bookmark)).toMatchObject({ title: 'Gone', deletedAt: expect.any(String) });
    expect(bookmarks.get('https://b.example/long')!.title).toBe('x'.repeat(2000));
    expect(Date.parse(bookmarks.get('https://b.example/nodate')!.createdAt)).toBeGreaterThanOrEqual(importedAt);

    const deep = bookmarks.get('https://b.example/deep')!;
    expect(paths.get(deep.collectionId!)).toEqual(Array.from({ length: MAX_COLLECTION_DEPTH + 1 }, (_, i) => `L${i + 1}`));
    expect(collections.find((c) => c.id === deep.collectionId)!.depth).toBe(MAX_COLLECTION_DEPTH);

    // The existing "Reading" is used as it is; the new folders are created with the file's attributes.
    expect(collections.find((c) => c.id === reading.id)).toMatchObject({ name: 'Reading', icon: '📖', notes: '' });
    expect(collections.filter((c) => c.name.toLowerCase() === 'reading')).toHaveLength(1);
    expect(collections.find((c) => c.name === 'New folder')).toMatchObject({ icon: '🆕', color: 'teal', notes: 'kept', parentId: null });
    const newOld = collections.find((c) => c.name === 'Old')!;
    expect(newOld.id).not.toBe(old.id);
    expect(bookmarks.get('https://b.example/old')!.collectionId).toBe(newOld.id);
    const tags = dataOf(await u.api('GET', '/tags'), z.array(Tag));
    expect(tags.map((tag) => tag.name).sort()).toEqual(['News', 'x', 'x/y']);

    // The same file again: everything is a duplicate and the tree does not grow.
    await nextMinute();
    const again = await importFile(t, u, file);
    expect(again.result).toEqual({ imported: 0, skipped: 3, duplicates: 8 });
    expect((await collectionPaths(u.api)).collections).toHaveLength(collections.length);
    expect(await allBookmarks(u.api)).toHaveLength(6);
  });

  it.each(GENERATED_FILES.map((make) => [make().name, make] as const))(
    'imports %s with every URL, folder and tag, and says what it skipped and why',
    async (_name, make) => {
      const file = make();
      const u = await t.user();
      const job = await importFile(t, u, file.content);
      const unique = new Set(file.bookmarks.map((b) => b.url));
      expect(job).toMatchObject({
        status: 'completed',
        format: file.format,
        result: { imported: unique.size, skipped: file.skipped.length, duplicates: file.bookmarks.length - unique.size },
      });
      expect(job.skippedReasons?.map((r) => r.reason)).toEqual(file.skipped.map((reason) => expect.stringMatching(reason)));
      expect((job.skippedCounts ?? []).reduce((sum, c) => sum + c.count, 0)).toBe(file.skipped.length);

      const { paths } = await collectionPaths(u.api);
      expect([...paths.values()].map((p) => p.join('/')).sort()).toEqual(file.collections.map((p) => p.join('/')).sort());
      const bookmarks = byUrl(await allBookmarks(u.api));
      for (const expected of file.bookmarks.filter((b, i, all) => all.findIndex((o) => o.url === b.url) === i)) {
        const b = bookmarks.get(expected.url);
        expect(b, expected.url).toBeDefined();
        expect([...b!.tags].sort()).toEqual(expected.tags);
        expect(b!.collectionId === null ? [] : paths.get(b!.collectionId)).toEqual(expected.path);
        if (expected.createdAt !== null) expect(b!.createdAt).toBe(new Date(expected.createdAt).toISOString());
      }
      expect(bookmarks.size).toBe(unique.size);
    },
  );

  it('writes thousands of sibling folders in slices, and a second import of them, in another case, adds none', async () => {
    const u = await t.user();
    const file = (name: (i: number) => string): string =>
      `<DL>${Array.from({ length: 5_001 }, (_, i) => `<DT><H3>${name(i)}</H3><DL>${i === 5_000 ? '<DT><H3>Child</H3><DL><DT><A HREF="https://child.example/">c</A></DL>' : ''}</DL>`).join('')}</DL>`;
    expect(await importFile(t, u, file((i) => `Folder ${i}`))).toMatchObject({ status: 'completed', result: { imported: 1 } });
    const first = await collectionPaths(u.api);
    expect(first.collections).toHaveLength(5_002);
    const child = first.collections.find((c) => c.name === 'Child')!;
    expect(first.paths.get(child.id)).toEqual(['Folder 5000', 'Child']);
    expect(await importFile(t, u, file((i) => `FOLDER ${i}`))).toMatchObject({ status: 'completed', result: { imported: 0, duplicates: 1 } });
    expect((await collectionPaths(u.api)).collections).toHaveLength(5_002);
  });

  it('reads the summary of a job completed before skipped entries were counted', async () => {
    const u = await t.user();
    const job = await importFile(t, u, '<DL><DT><A HREF="javascript:void(0)">x</A><DT><A HREF="https://kept.example/">k</A></DL>');
    expect(job.skippedCounts).toEqual([{ reason: 'unsupported URL scheme "javascript:"', count: 1 }]);
    const db = openRawDb({ dataDir: t.dataDir, databaseUrl: t.server.deps.config.databaseUrl });
    try {
      await db.run('UPDATE jobs SET skipped_reasons = ? WHERE id = ?', JSON.stringify([{ line: 1, reason: 'as stored before' }]), job.id);
    } finally {
      await db.close();
    }
    const read = dataOf(await u.api('GET', `/jobs/${job.id}`), Job);
    expect(read).toMatchObject({ skippedReasons: [{ line: 1, reason: 'as stored before' }], skippedCounts: [] });
  });

  it('fails an unrecognised file with a clear message, and removes it', async () => {
    const u = await t.user();
    const { jobId, storageId } = await reserveAndUpload(u, 'just some words\nthat are not bookmarks\n');
    dataOf(await u.api('POST', '/import/start', { body: { jobId, storageId } }), Job);
    const job = await settledJob(t, u, jobId);
    expect(job.status).toBe('failed');
    expect(job.errorMessage).toMatch(/^The file is not a bookmark export we can read: expected Netscape HTML/);
    expect(job.result).toBeUndefined();
    expect(await bytesKept(t, storageId)).toBe(false);
    expect(await allBookmarks(u.api)).toEqual([]);
  });
});

describe('POST /import/start errors', () => {
  it('404 for an unknown job or another user\'s; 409 for an export job', async () => {
    const owner = await t.user();
    const other = await t.user();
    const { jobId, storageId } = await reserveAndUpload(owner, '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL></DL>');
    expectError(await other.api('POST', '/import/start', { body: { jobId, storageId } }), 404, 'NOT_FOUND');
    expectError(await other.api('POST', '/import/start', { body: { jobId: 'job_nope', storageId } }), 404, 'NOT_FOUND');
    expect(dataOf(await owner.api('GET', `/jobs/${jobId}`), Job).status).toBe('pending');

    const { jobId: exportId } = dataOf(await owner.api('POST', '/export/json'), JobCreated, 201);
    expect(expectError(await owner.api('POST', '/import/start', { body: { jobId: exportId, storageId } }), 409, 'CONFLICT')).toMatch(/export job/);
  });

  it('400 RESERVATION_INVALID for a storageId that is not this job\'s upload; the job stays pending', async () => {
    const u = await t.user();
    const first = await reserveAndUpload(u, '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL></DL>');
    const second = await reserveAndUpload(u, '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL></DL>');
    expect(
      expectError(await u.api('POST', '/import/start', { body: { jobId: first.jobId, storageId: second.storageId } }), 400, 'RESERVATION_INVALID'),
    ).toMatch(/storageId/);
    expectError(await u.api('POST', '/import/start', { body: { jobId: first.jobId, storageId: 'file_bogus' } }), 400, 'RESERVATION_INVALID');
    expect(dataOf(await u.api('GET', `/jobs/${first.jobId}`), Job).status).toBe('pending');
    expect(await bytesKept(t, first.storageId)).toBe(true);
  });

  it('400 VALIDATION_ERROR naming a missing field', async () => {
    const u = await t.user();
    expect(expectError(await u.api('POST', '/import/start', { body: { jobId: 'job_x' } }), 400, 'VALIDATION_ERROR')).toMatch(/storageId/);
  });

  it('409 CONFLICT when started twice, also after it completed', async () => {
    const u = await t.user();
    const { jobId, storageId } = await reserveAndUpload(u, '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://x.example/">X</A></DL>');
    dataOf(await u.api('POST', '/import/start', { body: { jobId, storageId } }), Job);
    expect(expectError(await u.api('POST', '/import/start', { body: { jobId, storageId } }), 409, 'CONFLICT')).toMatch(/already started/);
    expect((await settledJob(t, u, jobId)).result).toEqual({ imported: 1, skipped: 0, duplicates: 0 });
    await nextMinute();
    expectError(await u.api('POST', '/import/start', { body: { jobId, storageId } }), 409, 'CONFLICT');
    expect(await allBookmarks(u.api)).toHaveLength(1);
  });
});

describe('import clean-up', () => {
  it('forgets an import reserved and never started after 24 hours, with its upload', async () => {
    const u = await t.user();
    const { jobId, storageId } = await reserveAndUpload(u, '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL></DL>');
    await t.advance(23 * HOUR);
    expect(dataOf(await u.api('GET', `/jobs/${jobId}`), Job).status).toBe('pending');
    expect(await bytesKept(t, storageId)).toBe(true);
    await t.advance(HOUR);
    expectError(await u.api('GET', `/jobs/${jobId}`), 404, 'NOT_FOUND');
    expect(await bytesKept(t, storageId)).toBe(false);
  });

  it('keeps a finished import readable until 30 days have passed', async () => {
    const u = await t.user();
    const { jobId } = await startImportOf(u.api, '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://y.example/">Y</A></DL>');
    await settledJob(t, u, jobId);
    await t.advance(29 * 24 * HOUR);
    expect(dataOf(await u.api('GET', `/jobs/${jobId}`), Job).result).toEqual({ imported: 1, skipped: 0, duplicates: 0 });
    await t.advance(24 * HOUR);
    expectError(await u.api('GET', `/jobs/${jobId}`), 404, 'NOT_FOUND');
  });
});
