import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { Job, JobCreated } from '../../lib/api/jobs.ts';
import { HOUR, MINUTE } from '../../server/clock.ts';
import { scheduleJob } from '../../server/jobs/schedule.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { type TestServer, type TestUser, apiFor, nextIp, startTestServer } from '../support/server.ts';
import { bytesKept } from '../support/stored-bytes.ts';
import { download, exportLibrary, importFile, jobCount, librarySnapshot, settledJob } from './jobs-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

/** Whether the store keeps this export artifact (in <dataDir>/exports on SQLite, in the database on PostgreSQL). */
const artifactKept = (name: string): Promise<boolean> => bytesKept(t, name, 'exports');

/** The file a completed export's attempt wrote, as its completion named it: `<job id>.<attempt>.<extension>`. */
async function artifactOf(jobId: string, extension: string): Promise<string> {
  const name = (await t.server.deps.store.jobs.find(jobId))!.storageId!;
  expect(name).toMatch(new RegExp(`^${jobId}\\.[0-9a-f]{12}\\.${extension}$`));
  return name;
}

async function collection(u: TestUser, body: Record<string, unknown>, notes?: string): Promise<Collection> {
  const created = dataOf(await u.api('POST', '/collections', { body }), Collection, 201);
  if (notes === undefined) return created;
  return dataOf(await u.api('PATCH', `/collections/${created.id}`, { body: { notes } }), Collection);
}

async function bookmark(u: TestUser, body: Record<string, unknown>): Promise<Bookmark> {
  const saved = dataOf(await u.api('POST', '/bookmarks', { body: { description: '', ...body } }), Bookmark, 201);
  await t.advance(1234); // distinct, non-whole-second creation times
  return saved;
}

/**
 * A library with what an export must carry: a nested tree with an empty collection and
 * icons, colors and notes; bookmarks with tags (one hierarchical), notes, favourites,
 * types, in collections and Unsorted; plus a trashed bookmark and a trashed collection
 * that must stay out.
 */
async function richLibrary(u: TestUser): Promise<void> {
  const work = await collection(u, { name: 'Work', icon: '💼', color: 'blue' }, 'Things for the job');
  const projects = await collection(u, { name: 'Projects, 2024', parentId: work.id, color: 'green' });
  const deep = await collection(u, { name: 'Deep', parentId: projects.id, icon: 'folder' });
  await collection(u, { name: 'Empty one', parentId: work.id }, 'Nothing here yet');
  await collection(u, { name: 'Reading' });
  const gone = await collection(u, { name: 'Gone' });

  await bookmark(u, { url: 'https://example.com/a', title: 'Alpha', collectionId: work.id, tags: ['dev/js', 'later'], note: 'my note' });
  await bookmark(u, { url: 'https://example.com/b?x=1&y=2', title: 'Beta "quoted", <b>', collectionId: deep.id, type: 'article', isFavorite: true });
  await bookmark(u, { url: 'https://example.org/c', title: 'Gamma', description: 'A longer description\nover two lines', tags: ['later'] });
  await bookmark(u, { url: 'https://example.org/video', title: 'A video', type: 'video', collectionId: projects.id, note: 'line one\nline two' });
  const trashed = await bookmark(u, { url: 'https://example.net/trashed', title: 'Trashed' });
  await bookmark(u, { url: 'https://example.net/in-gone', title: 'In a trashed collection', collectionId: gone.id });
  expect((await u.api('DELETE', `/bookmarks/${trashed.id}`)).status).toBe(200);
  expect((await u.api('DELETE', `/collections/${gone.id}`)).status).toBe(200);
}

describe('POST /export/:format', () => {
  it('creates a pending job that completes off the request, and downloads with the right headers', async () => {
    const u = await t.user();
    await richLibrary(u);
    const before = Date.now();
    const { jobId } = dataOf(await u.api('POST', '/export/json'), JobCreated, 201);

    const early = dataOf(await u.api('GET', `/jobs/${jobId}`), Job);
    expect(early).toMatchObject({ id: jobId, type: 'export', format: 'json' });
    expect(['pending', 'running', 'completed']).toContain(early.status);
    expect(early.errorMessage).toBeUndefined();

    const job = await settledJob(t, u, jobId);
    expect(job).toMatchObject({ status: 'completed', progress: 100, type: 'export', format: 'json' });
    expect(job.errorMessage).toBeUndefined();
    expect(Date.parse(job.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(job.expiresAt!) - Date.parse(job.completedAt!)).toBe(2 * HOUR);

    const res = await download(t, u, jobId);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="shelf-export-${job.completedAt!.slice(0, 10)}.json"`);
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);

    const file = JSON.parse(body.toString('utf8')) as { bookmarks: { url: string }[]; collections: { path: string[] }[] };
    expect(file.bookmarks.map((b) => b.url)).toEqual([
      'https://example.com/a',
      'https://example.com/b?x=1&y=2',
      'https://example.org/c',
      'https://example.org/video',
    ]);
    expect(file.collections.map((c) => c.path.join('/'))).toEqual([
      'Work',
      'Work/Projects, 2024',
      'Work/Projects, 2024/Deep',
      'Work/Empty one',
      'Reading',
    ]);
    // The artifact is kept, downloadable again until it expires.
    expect(await artifactKept(await artifactOf(jobId, 'json'))).toBe(true);
    expect((await download(t, u, jobId)).status).toBe(200);
  });

  it.each(['json', 'csv', 'html'] as const)('round trip through %s: a fresh user gets the same library', async (format) => {
    const source = await t.user();
    await richLibrary(source);
    const { file } = await exportLibrary(t, source, format);
    const target = await t.user();
    const job = await importFile(t, target, file);
    expect(job).toMatchObject({ status: 'completed', result: { imported: 4, skipped: 0, duplicates: 0 } });
    expect(await librarySnapshot(target.api)).toEqual(await librarySnapshot(source.api));
  });

  it('sends each format with its Content-Type and file extension', async () => {
    const u = await t.user();
    await bookmark(u, { url: 'https://example.com/only', title: 'Only' });
    for (const [format, type] of [
      ['csv', 'text/csv; charset=utf-8'],
      ['html', 'text/html; charset=utf-8'],
    ] as const) {
      const { job } = await exportLibrary(t, u, format);
      const res = await download(t, u, job.id);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`filename="shelf-export-\\d{4}-\\d{2}-\\d{2}\\.${format}"$`));
      expect(await res.text()).toContain('https://example.com/only');
    }
  });

  it('answers 400 for an unknown format and creates no job', async () => {
    const u = await t.user();
    expect(expectError(await u.api('POST', '/export/xml'), 400, 'VALIDATION_ERROR')).toMatch(/format/);
    expect(await jobCount(t, u)).toBe(0);
  });
});

describe('POST /jobs/:id/download', () => {
  it('answers 409 JOB_NOT_READY until the export completed', async () => {
    const u = await t.user();
    const hold = vi.spyOn(t.server.deps.jobRunner, 'enqueue').mockImplementation(() => undefined);
    const { jobId } = dataOf(await u.api('POST', '/export/csv'), JobCreated, 201);
    hold.mockRestore();
    expect(dataOf(await u.api('GET', `/jobs/${jobId}`), Job)).toMatchObject({ status: 'pending', progress: 0, expiresAt: null });
    expect(expectError(await u.api('POST', `/jobs/${jobId}/download`), 409, 'JOB_NOT_READY')).toMatch(/pending/);

    scheduleJob(t.server.deps, jobId);
    expect((await settledJob(t, u, jobId)).status).toBe('completed');
    expect((await download(t, u, jobId)).status).toBe(200);
  });

  it('a failed export says why, and has nothing to download', async () => {
    const u = await t.user();
    const broken = vi.spyOn(t.server.deps.store.jobs, 'exportCollections').mockRejectedValueOnce(new Error('disk on fire'));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { jobId } = dataOf(await u.api('POST', '/export/html'), JobCreated, 201);
    const job = await settledJob(t, u, jobId);
    broken.mockRestore();
    errors.mockRestore();
    expect(job).toMatchObject({ status: 'failed', errorMessage: expect.stringMatching(/export failed.*start a new one/) });
    expect(expectError(await u.api('POST', `/jobs/${jobId}/download`), 409, 'JOB_NOT_READY')).toMatch(/failed/);
    expect(await artifactKept(`${jobId}.html`)).toBe(false);
  });

  it('answers 409 CONFLICT for an import job', async () => {
    const u = await t.user();
    const { jobId } = dataOf(await u.api('POST', '/import/reserve'), JobCreated, 201);
    expectError(await u.api('POST', `/jobs/${jobId}/download`), 409, 'CONFLICT');
  });

  it("treats another user's job like one that does not exist", async () => {
    const owner = await t.user();
    const other = await t.user();
    const { job } = await exportLibrary(t, owner, 'json');
    expectError(await other.api('GET', `/jobs/${job.id}`), 404, 'NOT_FOUND');
    expectError(await other.api('POST', `/jobs/${job.id}/download`), 404, 'NOT_FOUND');
    expectError(await other.api('GET', '/jobs/job_doesnotexist'), 404, 'NOT_FOUND');
    expectError(await other.api('POST', '/jobs/job_doesnotexist/download'), 404, 'NOT_FOUND');
  });

  it('GET /jobs/:id takes any valid token of the owner, whatever its scopes', async () => {
    const u = await t.user();
    const { job } = await exportLibrary(t, u, 'json');
    const { token } = await issueToken(
      t.server.deps.store.accounts,
      { userId: u.userId, name: 'narrow', scopes: ['tags:read'], expiresAt: null },
      t.server.deps.clock.now(),
    );
    const narrow = apiFor(t.baseUrl, { token, ip: nextIp() });
    expect(dataOf(await narrow('GET', `/jobs/${job.id}`), Job)).toMatchObject({ id: job.id, status: 'completed' });
    expectError(await narrow('POST', `/jobs/${job.id}/download`), 403, 'SCOPE_REQUIRED');
  });
});

describe('export clean-up', () => {
  it('the artifact expires 2 hours after completion: 404 on download, file removed, job still readable', async () => {
    const u = await t.user();
    const { job } = await exportLibrary(t, u, 'json');
    const artifact = await artifactOf(job.id, 'json');

    await t.advance(2 * HOUR - MINUTE);
    expect((await download(t, u, job.id)).status).toBe(200);
    expect(await artifactKept(artifact)).toBe(true);

    await t.advance(MINUTE);
    const message = expectError(await u.api('POST', `/jobs/${job.id}/download`), 404, 'NOT_FOUND');
    expect(message).toMatch(/expired.*start a new one/);
    expect(await artifactKept(artifact)).toBe(false);
    expect(dataOf(await u.api('GET', `/jobs/${job.id}`), Job)).toMatchObject({ status: 'completed', expiresAt: job.expiresAt });
  });

  it('forgets jobs 30 days after they were created', async () => {
    const u = await t.user();
    const { job } = await exportLibrary(t, u, 'csv');
    await t.advance(29 * 24 * HOUR);
    expect(dataOf(await u.api('GET', `/jobs/${job.id}`), Job).id).toBe(job.id);
    await t.advance(24 * HOUR);
    expectError(await u.api('GET', `/jobs/${job.id}`), 404, 'NOT_FOUND');
  });
});
