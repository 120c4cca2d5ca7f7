import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { holdJob } from '../../server/jobs/lease.ts';
import { openRawDb } from '../support/raw-db.ts';
import { type TestServer, startTestServer } from '../support/server.ts';

/** The shortest lease the server takes: renewed every third of it. */
const LEASE_MS = 1_000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ jobLeaseMs: LEASE_MS });
});
afterAll(() => t.close());

/**
 * A lease another attempt took is lost for good: the attempt that lost it stops, and stops
 * renewing it too. It used to go on sending its renewals until its run unwound, which, read
 * from the database, looked like a live holder of a job that was not moving.
 */
it('an attempt that lost its lease is told so and renews it no more', async () => {
  const { deps } = t.server;
  const u = await t.user();
  const job = await deps.store.jobs.create({ userId: u.userId, type: 'export', format: 'json' }, deps.clock.now());
  const held = (await holdJob(deps, job.id, new AbortController().signal))!;
  expect(held).not.toBeNull();
  const renewals = vi.spyOn(deps.store.jobs, 'renewLease');
  try {
    // While it holds the lease, it renews it.
    await vi.waitFor(() => expect(renewals).toHaveBeenCalled(), { timeout: LEASE_MS * 2 });

    // Another instance's attempt holds the job now, for long (as a claim after a lapse leaves it).
    const db = openRawDb({ dataDir: t.dataDir, databaseUrl: deps.config.databaseUrl });
    try {
      await db.run('UPDATE jobs SET lease_owner = ?, lease_until = ? WHERE id = ?', 'inst_other.000000000000', Date.now() + 3_600_000, job.id);
    } finally {
      await db.close();
    }
    await vi.waitFor(() => expect(held.signal.aborted).toBe(true), { timeout: LEASE_MS * 2 });

    const after = renewals.mock.calls.length;
    await wait(LEASE_MS);
    expect(renewals.mock.calls.length).toBe(after);
    expect((await deps.store.jobs.find(job.id))!.leaseOwner).toBe('inst_other.000000000000');
  } finally {
    renewals.mockRestore();
    await held.release();
  }
});

it('an attempt that lost its job cannot fail it: the job stays its new holder’s', async () => {
  const { deps } = t.server;
  const u = await t.user();
  const job = await deps.store.jobs.create({ userId: u.userId, type: 'import', format: 'netscape' }, deps.clock.now());
  const db = openRawDb({ dataDir: t.dataDir, databaseUrl: deps.config.databaseUrl });
  try {
    // An import runs once its file is uploaded.
    await db.run("UPDATE jobs SET status = 'running' WHERE id = ?", job.id);
    const held = (await holdJob(deps, job.id, new AbortController().signal))!;
    expect(held).not.toBeNull();
    try {
      await db.run('UPDATE jobs SET lease_owner = ?, lease_until = ? WHERE id = ?', 'inst_other.000000000000', Date.now() + 3_600_000, job.id);
      const message = 'The import failed on the server; start a new one';
      // Told so, the attempt leaves the job and its file (schedule.ts, import-job.ts) to the holder reading it.
      expect(await deps.store.jobs.fail(job.id, held.owner, message, deps.clock.now())).toBe(false);
      expect(await deps.store.jobs.find(job.id)).toMatchObject({ status: 'running', leaseOwner: 'inst_other.000000000000' });

      expect(await deps.store.jobs.fail(job.id, 'inst_other.000000000000', message, deps.clock.now())).toBe(true);
      expect(await deps.store.jobs.find(job.id)).toMatchObject({ status: 'failed', errorMessage: message });
    } finally {
      await held.release();
    }
  } finally {
    await db.close();
  }
});
