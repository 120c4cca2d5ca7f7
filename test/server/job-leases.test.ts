import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportEntry, JobsStore } from '../../server/store/jobs.ts';
import { PgJobs } from '../../server/store/postgres/jobs.ts';
import { SqliteJobs } from '../../server/store/sqlite/jobs.ts';
import { BACKENDS, type BackendDb, addUser, freshDb, withCluster } from './postgres/library-fixtures.ts';

withCluster();

const NOW = 1_800_000_000_000;
/** Long enough never to lapse within a test. */
const LEASE = 30_000;
/** Short enough to lapse by waiting for it. */
const SHORT = 150;
const lapse = () => new Promise((resolve) => setTimeout(resolve, SHORT + 50));

const entry = (i: number): ImportEntry => ({
  ok: true,
  url: `https://example.com/${i}`,
  title: `t${i}`,
  description: '',
  note: '',
  type: 'link',
  isFavorite: false,
  tags: [],
  collectionPath: [],
  createdAt: null,
});
const NO_SKIPS = { skipped: 0, summary: { reasons: [], counts: [] } };

/**
 * Two instances on one database (two stores over it); owners are lease tokens, one per attempt
 * (`<instance>.<attempt>`, as holdJob makes them).
 */
describe.each(BACKENDS)('job leases on %s', (backend) => {
  let db: BackendDb;
  let a: JobsStore;
  let b: JobsStore;
  beforeEach(async () => {
    db = await freshDb(backend);
    const jobs = (): JobsStore => (db.kind === 'sqlite' ? new SqliteJobs(db.db) : new PgJobs(db.db));
    a = jobs();
    b = jobs();
  });
  afterEach(() => vi.restoreAllMocks());

  const exportJob = async (): Promise<string> => (await a.create({ userId: await addUser(db), type: 'export', format: 'json' }, NOW)).id;
  const runningImport = async (): Promise<string> => {
    const userId = await addUser(db);
    const job = await a.create({ userId, type: 'import', format: null }, NOW);
    await a.startImport(userId, job.id, 'file_x', NOW);
    return job.id;
  };

  it('lets one instance take a job, and the other only once the lease lapsed', async () => {
    const id = await exportJob();
    expect(await a.claim(id, 'inst_a.1', SHORT)).toMatchObject({ id, leaseOwner: 'inst_a.1' });
    expect(await b.claim(id, 'inst_b.1', LEASE)).toBeNull();
    expect(await b.interrupted()).toEqual([]);
    // Taking it again with the same token is allowed (the same attempt asking twice).
    expect(await a.claim(id, 'inst_a.1', SHORT)).not.toBeNull();

    await lapse();
    expect((await b.interrupted()).map((j) => j.id)).toEqual([id]);
    expect(await b.claim(id, 'inst_b.1', LEASE)).toMatchObject({ leaseOwner: 'inst_b.1' });
    expect(await a.renewLease(id, 'inst_a.1', LEASE)).toBe(false);
    expect(await b.renewLease(id, 'inst_b.1', LEASE)).toBe(true);
  });

  it('keeps a renewed lease, and frees a released one at once', async () => {
    const id = await exportJob();
    await a.claim(id, 'inst_a.1', SHORT);
    expect(await a.renewLease(id, 'inst_a.1', LEASE)).toBe(true);
    await lapse();
    expect(await b.claim(id, 'inst_b.1', LEASE)).toBeNull();
    await b.releaseLease(id, 'inst_b.1'); // not the holder: nothing happens
    expect(await b.claim(id, 'inst_b.1', LEASE)).toBeNull();
    await a.releaseLease(id, 'inst_a.1');
    expect(await b.claim(id, 'inst_b.1', LEASE)).toMatchObject({ leaseOwner: 'inst_b.1' });
  });

  it('takes no job that is finished or an import not started', async () => {
    const id = await exportJob();
    await a.claim(id, 'inst_a.1', LEASE);
    await a.startExport(id, 'inst_a.1', NOW);
    expect(await a.completeExport(id, 'inst_a.1', `${id}.1.json`, NOW, NOW + LEASE)).toBe(true);
    await a.releaseLease(id, 'inst_a.1');
    expect(await b.claim(id, 'inst_b.1', LEASE)).toBeNull();
    expect(await a.find(id)).toMatchObject({ status: 'completed', storageId: `${id}.1.json` });

    const reserved = await a.create({ userId: await addUser(db), type: 'import', format: null }, NOW);
    expect(await b.claim(reserved.id, 'inst_b.1', LEASE)).toBeNull();
    expect(await b.interrupted()).toEqual([]);
  });

  it('fences on the attempt, not the instance: an earlier attempt of the same instance that lost the lease completes nothing', async () => {
    const id = await exportJob();
    await a.claim(id, 'inst_a.first', SHORT);
    await a.startExport(id, 'inst_a.first', NOW);
    await lapse();
    expect(await a.claim(id, 'inst_a.second', LEASE)).toMatchObject({ leaseOwner: 'inst_a.second' });
    expect(await a.completeExport(id, 'inst_a.first', `${id}.first.json`, NOW, NOW + LEASE)).toBe(false);
    await a.fail(id, 'inst_a.first', 'lost', NOW);
    expect(await a.find(id)).toMatchObject({ status: 'running', storageId: null });
    expect(await a.completeExport(id, 'inst_a.second', `${id}.second.json`, NOW, NOW + LEASE)).toBe(true);
    expect(await a.find(id)).toMatchObject({ status: 'completed', storageId: `${id}.second.json` });
  });

  it('ignores the writes of an instance that lost the job', async () => {
    const id = await runningImport();
    const first = (await a.claim(id, 'inst_a.1', SHORT))!;
    const writerA = await a.importWriter(first);
    expect(await writerA.writeBatch([entry(1)], { position: 1, progress: 10 }, NOW)).toBe(true);

    await lapse();
    const second = (await b.claim(id, 'inst_b.1', LEASE))!;
    expect(second.position).toBe(1);
    expect(await writerA.writeBatch([entry(2)], { position: 2, progress: 20 }, NOW)).toBe(false);
    expect(await a.completeImport(id, 'inst_a.1', NO_SKIPS, NOW)).toBe(false);
    await a.fail(id, 'inst_a.1', 'lost', NOW);
    await writerA.close();
    expect(await b.find(id)).toMatchObject({ status: 'running', position: 1, counts: { imported: 1 } });

    const writerB = await b.importWriter(second);
    expect(await writerB.writeBatch([entry(2)], { position: 2, progress: 20 }, NOW)).toBe(true);
    expect(await b.completeImport(id, 'inst_b.1', NO_SKIPS, NOW)).toBe(true);
    await writerB.close();
    expect(await a.find(id)).toMatchObject({ status: 'completed', counts: { imported: 2, skipped: 0, duplicates: 0 } });
  });

  it.runIf(backend === 'postgres')('times leases by the database, not by the instance: one whose clock is an hour off takes no held job and holds none too long', async () => {
    const id = await exportJob();
    const real = Date.now.bind(Date);
    await a.claim(id, 'inst_a.1', LEASE);
    // Instance b's clock is an hour ahead: by its own clock a's lease lapsed long ago.
    const ahead = vi.spyOn(Date, 'now').mockImplementation(() => real() + 3_600_000);
    expect(await b.claim(id, 'inst_b.1', LEASE)).toBeNull();
    expect(await b.interrupted()).toEqual([]);
    ahead.mockRestore();

    // Instance a's clock is an hour behind: by its own clock its short lease would still hold for an hour.
    const id2 = await exportJob();
    const behind = vi.spyOn(Date, 'now').mockImplementation(() => real() - 3_600_000);
    await a.claim(id2, 'inst_a.1', SHORT);
    behind.mockRestore();
    await lapse();
    expect(await b.claim(id2, 'inst_b.1', LEASE)).toMatchObject({ leaseOwner: 'inst_b.1' });
  });
});
