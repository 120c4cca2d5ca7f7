import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/store/sqlite/index.ts';
import type { Store } from '../../server/store/store.ts';

/** Two instances' connections to one database, as two server processes on one --data dir have. */
let dir: string;
let a: Store;
let b: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shelf-leases-'));
  a = openSqliteStore(dir);
  b = openSqliteStore(dir);
});
afterEach(() => {
  a.close();
  b.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = 1_800_000_000_000;
const LEASE = 30_000;

async function exportJob(): Promise<string> {
  const user = await a.accounts.createUser({ name: 'L', email: 'l@example.com', plan: 'pro' }, NOW);
  return (await a.jobs.create({ userId: user.id, type: 'export', format: 'json' }, NOW)).id;
}

async function runningImport(): Promise<string> {
  const user = await a.accounts.createUser({ name: 'L', email: 'l@example.com', plan: 'pro' }, NOW);
  const job = await a.jobs.create({ userId: user.id, type: 'import', format: null }, NOW);
  await a.jobs.startImport(user.id, job.id, 'file_x', NOW);
  return job.id;
}

describe('job leases on one database shared by two instances', () => {
  it('lets one instance take a job, and the other only once the lease lapsed', async () => {
    const id = await exportJob();
    const taken = await a.jobs.claim(id, 'inst_a', NOW + LEASE, NOW);
    expect(taken).toMatchObject({ id, leaseOwner: 'inst_a' });
    expect(await b.jobs.claim(id, 'inst_b', NOW + LEASE, NOW + 1)).toBeNull();
    expect(await b.jobs.interrupted(NOW + 1)).toEqual([]);
    // Taking it again as its holder is allowed (a second queueing of the same job on one instance).
    expect(await a.jobs.claim(id, 'inst_a', NOW + LEASE, NOW + 1)).not.toBeNull();

    expect((await b.jobs.interrupted(NOW + LEASE)).map((j) => j.id)).toEqual([id]);
    expect(await b.jobs.claim(id, 'inst_b', NOW + 2 * LEASE, NOW + LEASE)).toMatchObject({ leaseOwner: 'inst_b' });
    expect(await a.jobs.renewLease(id, 'inst_a', NOW + 2 * LEASE)).toBe(false);
    expect(await b.jobs.renewLease(id, 'inst_b', NOW + 3 * LEASE)).toBe(true);
  });

  it('keeps a renewed lease, and frees a released one at once', async () => {
    const id = await exportJob();
    await a.jobs.claim(id, 'inst_a', NOW + LEASE, NOW);
    expect(await a.jobs.renewLease(id, 'inst_a', NOW + 2 * LEASE)).toBe(true);
    expect(await b.jobs.claim(id, 'inst_b', NOW + 3 * LEASE, NOW + LEASE)).toBeNull();
    await b.jobs.releaseLease(id, 'inst_b'); // not the holder: nothing happens
    expect(await b.jobs.claim(id, 'inst_b', NOW + 3 * LEASE, NOW + LEASE)).toBeNull();
    await a.jobs.releaseLease(id, 'inst_a');
    expect(await b.jobs.claim(id, 'inst_b', NOW + 3 * LEASE, NOW + LEASE)).toMatchObject({ leaseOwner: 'inst_b' });
  });

  it('takes no job that is finished or an import not started', async () => {
    const id = await exportJob();
    await a.jobs.claim(id, 'inst_a', NOW + LEASE, NOW);
    await a.jobs.startExport(id, 'inst_a', NOW);
    await a.jobs.completeExport(id, 'inst_a', NOW, NOW + LEASE);
    await a.jobs.releaseLease(id, 'inst_a');
    expect(await b.jobs.claim(id, 'inst_b', NOW + LEASE, NOW)).toBeNull();

    const user = await a.accounts.createUser({ name: 'M', email: 'm@example.com', plan: 'pro' }, NOW);
    const reserved = await a.jobs.create({ userId: user.id, type: 'import', format: null }, NOW);
    expect(await b.jobs.claim(reserved.id, 'inst_b', NOW + LEASE, NOW)).toBeNull();
    expect(await b.jobs.interrupted(NOW)).toEqual([]);
  });

  it('ignores the writes of an instance that lost the job', async () => {
    const id = await runningImport();
    const first = (await a.jobs.claim(id, 'inst_a', NOW + LEASE, NOW))!;
    const writerA = await a.jobs.importWriter(first);
    const entry = (i: number) => ({
      ok: true as const,
      url: `https://example.com/${i}`,
      title: `t${i}`,
      description: '',
      note: '',
      type: 'link' as const,
      isFavorite: false,
      tags: [],
      collectionPath: [],
      createdAt: null,
    });
    expect(await writerA.writeBatch([entry(1)], { position: 1, progress: 10 }, NOW)).toBe(true);

    const second = (await b.jobs.claim(id, 'inst_b', NOW + 2 * LEASE, NOW + LEASE))!;
    expect(second.position).toBe(1);
    expect(await writerA.writeBatch([entry(2)], { position: 2, progress: 20 }, NOW + LEASE)).toBe(false);
    expect(await a.jobs.completeImport(id, 'inst_a', { skipped: 0, summary: { reasons: [], counts: [] } }, NOW + LEASE)).toBe(false);
    await a.jobs.fail(id, 'inst_a', 'lost', NOW + LEASE);
    await writerA.close();
    expect(await b.jobs.find(id)).toMatchObject({ status: 'running', position: 1, counts: { imported: 1 } });

    const writerB = await b.jobs.importWriter(second);
    expect(await writerB.writeBatch([entry(2)], { position: 2, progress: 20 }, NOW + LEASE)).toBe(true);
    expect(await b.jobs.completeImport(id, 'inst_b', { skipped: 0, summary: { reasons: [], counts: [] } }, NOW + LEASE)).toBe(true);
    await writerB.close();
    expect(await a.jobs.find(id)).toMatchObject({ status: 'completed', counts: { imported: 2, skipped: 0, duplicates: 0 } });
  });
});
