import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportReserved, Job } from '../../lib/api/jobs.ts';
import { MINUTE } from '../../server/clock.ts';
import { StorageService } from '../../server/storage/service.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type TestServer, type TestUser, nextIp, startTestServer } from '../support/server.ts';
import { storedFileNames } from '../support/stored-bytes.ts';
import { exportLibrary, jobCount, settledJob, upload } from './jobs-fixtures.ts';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

const FILE = '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://a.example/">A</A></DL>';

/** POST /import/reserve is heavy (2 a minute), so every other reservation waits for the next minute. */
async function reserve(u: TestUser, n: number): Promise<{ jobId: string; uploadUrl: string }[]> {
  const reserved = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) await t.advance(MINUTE);
    reserved.push(dataOf(await u.api('POST', '/import/reserve'), ImportReserved, 201));
  }
  return reserved;
}

describe('pending import uploads are capped per user', () => {
  it('refuses a sixth import while five are reserved and not started, leaving no job behind', async () => {
    const u = await t.user();
    const reserved = await reserve(u, 5);
    const [first, second] = reserved;
    for (const { uploadUrl } of [first!, second!]) expect((await upload(uploadUrl, FILE)).status).toBe(201);

    await t.advance(MINUTE);
    const refused = await u.api('POST', '/import/reserve');
    expect(expectError(refused, 429, 'TOO_MANY_PENDING_UPLOADS')).toMatch(/5 imports are already reserved and not started \(at most 5\)/);
    // The first unused upload URL ends 13 minutes from now (it was made two minutes ago), less the real seconds
    // the steps since took: the test clock moves on with real time between its jumps.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeLessThanOrEqual(13 * 60);
    expect(retryAfter).toBeGreaterThan(13 * 60 - 15);
    expect(await jobCount(t, u)).toBe(5);

    // Another user, and this user's covers, are not held up.
    expect((await (await t.user()).api('POST', '/import/reserve')).status).toBe(201);

    // Unused upload URLs stop counting when they expire; uploaded files wait for their start.
    await t.advance(15 * MINUTE);
    const after = await reserve(u, 3);
    expect(after).toHaveLength(3);
    await t.advance(MINUTE);
    expectError(await u.api('POST', '/import/reserve'), 429, 'TOO_MANY_PENDING_UPLOADS');

    // Starting one makes room.
    const { storageId } = (await upload(after[0]!.uploadUrl, FILE)).body as { storageId: string };
    dataOf(await u.api('POST', '/import/start', { body: { jobId: after[0]!.jobId, storageId } }), Job);
    await settledJob(t, u, after[0]!.jobId);
    await t.advance(MINUTE);
    expect((await u.api('POST', '/import/reserve')).status).toBe(201);
  });

  it('counts import files waiting for their start in the storage quota, for imports and covers alike', async () => {
    const { store, clock } = t.server.deps;
    const storage = new StorageService({ store, clock, quotaBytes: 150 });
    const u = await t.user();
    const sixty = 'x'.repeat(60);
    const importUpload = async () => {
      const job = await store.jobs.create({ userId: u.userId, type: 'import', format: null }, clock.now());
      const { uploadUrl } = await storage.reserveImport(u.userId, job.id, t.server.origin);
      const token = uploadUrl.split('/').pop()!;
      return storage.receiveUpload(token, new Blob([sixty]).stream(), 'text/plain');
    };
    await importUpload();
    await importUpload();
    await expect(importUpload()).rejects.toMatchObject({ code: 'STORAGE_LIMIT_REACHED', status: 422 });
    // The refused file's bytes are gone: only the two accepted files are kept.
    expect(await storedFileNames(t, 'uploads')).toHaveLength(2);

    const bookmark = await u.api('POST', '/bookmarks', { body: { url: 'https://cover.example/' } });
    const bookmarkId = (bookmark.body as { data: { id: string } }).data.id;
    const { uploadUrl, reservationId } = await storage.reserveCover(u.userId, bookmarkId, t.server.origin);
    const png = new Uint8Array(40);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const { storageId } = (await fetch(uploadUrl, { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: png }).then((r) =>
      r.json(),
    )) as { storageId: string };
    await expect(storage.saveCover(u.userId, bookmarkId, { storageId, reservationId }, t.server.origin)).rejects.toMatchObject({
      code: 'STORAGE_LIMIT_REACHED',
    });
  });
});

describe('/storage gets the per-address gateway limit', () => {
  it('answers the 61st request of a minute from one address 429 with only Retry-After, sharing the budget with /v1', async () => {
    const ip = nextIp();
    const missing = `${t.server.origin}/storage/files/fil_${'0'.repeat(32)}`;
    const get = () => fetch(missing, { headers: { 'X-Forwarded-For': ip } });
    const u = await t.user();
    expect((await u.api('GET', '/auth/verify', { ip })).status).toBe(200);
    for (let i = 0; i < 59; i++) expect((await get()).status).toBe(404);
    const limited = await get();
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-limit')).toBeNull();
    const uploadUrl = `${t.server.origin}/storage/uploads/${'a'.repeat(43)}`;
    expect((await fetch(uploadUrl, { method: 'POST', body: 'x', headers: { 'X-Forwarded-For': ip } })).status).toBe(429);
    expectError(await u.api('GET', '/auth/verify', { ip }), 429, 'RATE_LIMITED');
    expect((await fetch(missing, { headers: { 'X-Forwarded-For': nextIp() } })).status).toBe(404);
    // A preflight costs nothing.
    expect((await fetch(missing, { method: 'OPTIONS', headers: { 'X-Forwarded-For': ip } })).status).toBe(204);
    await t.advance(MINUTE);
    expect((await get()).status).toBe(404);
  });
});

describe('the data directory is private', () => {
  // With --database the server keeps nothing in a data directory: PostgreSQL's own access control guards the data.
  it.skipIf(process.env.SHELF_TEST_POSTGRES_URL !== undefined)('creates the directory 0700 and the database, uploads and export artifacts 0600', async () => {
    const fresh = await startTestServer({ dataDir: join(t.dataDir, 'new', 'data') });
    try {
      const u = await fresh.user();
      const mode = (path: string) => statSync(join(fresh.dataDir, path)).mode & 0o777;
      const reserved = dataOf(await u.api('POST', '/import/reserve'), ImportReserved, 201);
      const { storageId } = (await upload(reserved.uploadUrl, FILE)).body as { storageId: string };
      await exportLibrary(fresh, u, 'json');

      expect(mode('.')).toBe(0o700);
      expect(mode('..')).toBe(0o700);
      for (const file of ['shelf.db', 'shelf.db-wal', 'shelf.db-shm']) expect(mode(file), file).toBe(0o600);
      expect(mode('files')).toBe(0o700);
      expect(mode(`files/${storageId}`)).toBe(0o600);
      expect(mode('exports')).toBe(0o700);
      const artifacts = readdirSync(join(fresh.dataDir, 'exports'));
      expect(artifacts.length).toBeGreaterThan(0);
      for (const name of artifacts) expect(mode(`exports/${name}`), name).toBe(0o600);
    } finally {
      await fresh.close();
    }
  });
});
