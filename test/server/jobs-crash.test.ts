import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportReserved, Job, JobCreated } from '../../lib/api/jobs.ts';
import { IMPORT_MESSAGES } from '../../server/jobs/import-job.ts';
import { dataOf } from '../support/expect.ts';
import { startShelfServer } from '../support/server-bundle-global.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { type Api, apiFor, nextIp, projectDatabase, startTestServer } from '../support/server.ts';
import { KILLED_IMPORT_COUNT, allBookmarks, netscapeFile, startImportOf, upload } from './jobs-fixtures.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Place {
  dataDir: string;
  /** In the server-postgres project a new database of its cluster, else null (SQLite in dataDir). */
  databaseUrl: string | null;
}

/** Where a server keeps its data, kept over its restarts. */
async function newPlace(): Promise<Place> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shelf-crash-'));
  dirs.push(dataDir);
  return { dataDir, databaseUrl: await projectDatabase() };
}

/**
 * The real server as a user runs it, in its own process, and the token a first start
 * prints (null on later starts). --raise-limits: this test polls and pages faster than
 * the per-minute limits allow. --job-lease-ms: a killed server's jobs are taken over once
 * its lease lapses, here after 3 s rather than 30.
 */
async function startProcess(place: Place): Promise<ServerProcess & { baseUrl: string; token: string | null }> {
  const database = place.databaseUrl === null ? ['--data', place.dataDir] : ['--database', place.databaseUrl];
  const server = await startShelfServer(['--port', '0', ...database, '--test-clock', '--raise-limits', '--job-lease-ms', '3000']);
  return { ...server, baseUrl: server.url, token: server.banner.join('\n').match(/\btok_[0-9a-f]{64}\b/)?.[0] ?? null };
}

async function jobOf(api: Api, jobId: string): Promise<Job> {
  return dataOf(await api('GET', `/jobs/${jobId}`), Job);
}

/** Polls until the job satisfies `done` (or the time is up); catching a job midway needs a short interval. */
async function pollJob(api: Api, jobId: string, done: (job: Job) => boolean, intervalMs = 100): Promise<Job> {
  const timeoutMs = 90_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobOf(api, jobId);
    if (done(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} (${job.progress}%)`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

const finished = (job: Job): boolean => job.status === 'completed' || job.status === 'failed';
const COUNT = KILLED_IMPORT_COUNT;
const urlOf = (i: number): string => `https://site${i % 300}.example.com/articles/${i}/a-reasonably-long-slug-for-page-${i}?ref=feed`;

describe('a server killed mid-job', () => {
  it('resumes an import after its last committed batch, and reruns an export', async () => {
    const place = await newPlace();
    const first = await startProcess(place);
    const token = first.token!;
    expect(token).toMatch(/^tok_/);
    let api = apiFor(first.baseUrl, { token });

    const file = netscapeFile(COUNT, { urlOf });
    expect(Buffer.byteLength(file)).toBeLessThan(5 * 1024 * 1024);
    const { jobId } = await startImportOf(api, file);
    const midway = await pollJob(api, jobId, (job) => job.progress > 0 || finished(job), 5);
    expect(midway).toMatchObject({ status: 'running' });
    expect(midway.progress).toBeLessThan(100);
    await first.kill();

    const second = await startProcess(place);
    expect(second.token).toBeNull();
    api = apiFor(second.baseUrl, { token });
    const job = await pollJob(api, jobId, finished);
    // Resumed, not restarted: a rerun from the top would count the committed batches as duplicates.
    expect(job).toMatchObject({ status: 'completed', progress: 100, result: { imported: COUNT, skipped: 0, duplicates: 0 } });
    const urls = (await allBookmarks(api)).map((b) => b.url);
    expect(urls).toHaveLength(COUNT);
    expect(new Set(urls)).toEqual(new Set(Array.from({ length: COUNT }, (_, i) => urlOf(i))));

    const { jobId: exportId } = dataOf(await api('POST', '/export/html'), JobCreated, 201);
    expect(['pending', 'running']).toContain((await jobOf(api, exportId)).status);
    await second.kill();

    const third = await startProcess(place);
    api = apiFor(third.baseUrl, { token });
    const exported = await pollJob(api, exportId, finished);
    expect(exported).toMatchObject({ status: 'completed', progress: 100 });
    const res = await fetch(`${third.baseUrl}/jobs/${exportId}/download`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect((await res.text()).match(/<DT><A HREF=/g)).toHaveLength(COUNT);
    await third.kill();
  }, 180_000);
});

/** Ten batches of 50: the first commits before the stop, the other nine after the next start. */
const STOPPED_IMPORT_COUNT = 500;

describe('a server stopped mid-import', { timeout: 60_000 }, () => {
  /**
   * Starts an import of STOPPED_IMPORT_COUNT bookmarks and stops the server cleanly right after its first batch
   * commits; with `dropFile`, its uploaded file is gone by then.
   */
  const stopMidway = async (place: Place, options: { dropFile?: boolean } = {}): Promise<{ jobId: string; token: string }> => {
    const t = await startTestServer(place);
    const { store, jobRunner } = t.server.deps;
    const u = await t.user();
    const openWriter = store.jobs.importWriter.bind(store.jobs);
    store.jobs.importWriter = async (job) => {
      const writer = await openWriter(job);
      const writeBatch = writer.writeBatch.bind(writer);
      writer.writeBatch = async (...args) => {
        const written = await writeBatch(...args);
        void jobRunner.stop(); // as a SIGTERM would, from the job's next safe point on
        return written;
      };
      return writer;
    };
    const { jobId, uploadUrl } = dataOf(await u.api('POST', '/import/reserve'), ImportReserved, 201);
    const { storageId } = (await upload(uploadUrl, netscapeFile(STOPPED_IMPORT_COUNT))).body as { storageId: string };
    dataOf(await u.api('POST', '/import/start', { body: { jobId, storageId } }), Job);
    await jobRunner.idle();
    if (options.dropFile) await store.files.remove([storageId]);
    await t.close();
    return { jobId, token: u.token };
  };

  it('leaves it running, and the next start picks it up after its last batch', async () => {
    const place = await newPlace();
    const { jobId, token } = await stopMidway(place);
    const t = await startTestServer(place);
    const api = apiFor(t.baseUrl, { token, ip: nextIp() });
    await t.server.deps.jobRunner.idle();
    expect(await jobOf(api, jobId)).toMatchObject({ status: 'completed', result: { imported: STOPPED_IMPORT_COUNT, skipped: 0, duplicates: 0 } });
    expect(await allBookmarks(api)).toHaveLength(STOPPED_IMPORT_COUNT);
    await t.close();
  });

  it('fails it clearly when its file is gone by the next start', async () => {
    const place = await newPlace();
    const { jobId, token } = await stopMidway(place, { dropFile: true });
    const t = await startTestServer(place);
    const api = apiFor(t.baseUrl, { token, ip: nextIp() });
    await t.server.deps.jobRunner.idle();
    const job = await jobOf(api, jobId);
    expect(job).toMatchObject({ status: 'failed', errorMessage: IMPORT_MESSAGES.interrupted });
    expect(job.errorMessage).toMatch(/interrupted by a server restart.*start the import again/);
    // What the first batch committed stays.
    expect(await allBookmarks(api)).toHaveLength(50);
    await t.close();
  });
});
