import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { attemptArtifactName, isArtifactOf } from '../../server/jobs/artifacts.ts';
import { sweepJobs } from '../../server/jobs/cleanup.ts';
import { runExport } from '../../server/jobs/export-job.ts';
import { EXPORT_PAGE } from '../../server/jobs/export-source.ts';
import type { HeldJob } from '../../server/jobs/lease.ts';
import type { JobRecord } from '../../server/store/jobs.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { download, importFile, netscapeFile } from './jobs-fixtures.ts';

let t: TestServer;
let u: TestUser;
beforeAll(async () => {
  t = await startTestServer();
  u = await t.user();
  // More than a page of the export's reads, so that a run can be stopped between two of them.
  expect((await importFile(t, u, netscapeFile(EXPORT_PAGE + 200))).status).toBe('completed');
});
afterAll(() => t.close());

const LONG = 60_000;

/** A new export job held by the attempt `owner`, with the attempt's abort signal, as holdJob hands it over. */
async function heldExport(owner: string, leaseMs = LONG, controller = new AbortController()): Promise<HeldJob & { controller: AbortController }> {
  const { store, clock } = t.server.deps;
  const created = await store.jobs.create({ userId: u.userId, type: 'export', format: 'json' }, clock.now());
  const job = (await store.jobs.claim(created.id, owner, leaseMs))!;
  return { job, owner, signal: controller.signal, controller, release: () => store.jobs.releaseLease(job.id, owner) };
}

const filesOf = async (job: JobRecord) => (await t.server.deps.store.exports.list()).filter((name) => isArtifactOf(job.id, name));
const find = async (job: JobRecord) => (await t.server.deps.store.jobs.find(job.id))!;

describe('an export attempt', () => {
  it('writes a file of its own, named by its attempt, which the completion names and the download serves', async () => {
    const held = await heldExport('inst_x.a1b2c3');
    await runExport(t.server.deps, held);
    expect(await find(held.job)).toMatchObject({ status: 'completed', storageId: `${held.job.id}.a1b2c3.json` });
    expect(attemptArtifactName(held.job, held.owner)).toBe(`${held.job.id}.a1b2c3.json`);
    expect(await filesOf(held.job)).toEqual([`${held.job.id}.a1b2c3.json`]);
    const res = await download(t, u, held.job.id);
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toMatchObject({ bookmarks: expect.any(Array) });
  });

  it('stops mid-stream once its lease is lost, leaving neither a file nor a completion', async () => {
    const held = await heldExport('inst_x.d4e5f6');
    // The lease is lost while the first page is being written: the signal holdJob aborts then.
    const setProgress = vi.spyOn(t.server.deps.store.jobs, 'setProgress').mockImplementationOnce(async () => held.controller.abort(new Error('lease lost')));
    try {
      await expect(runExport(t.server.deps, held)).rejects.toThrow('lease lost');
    } finally {
      setProgress.mockRestore();
    }
    expect(await find(held.job)).toMatchObject({ status: 'running', storageId: null });
    expect(await filesOf(held.job)).toEqual([]);
  });

  it('that lost its lease without noticing completes nothing and forgets its file; the one that took over completes with its own', async () => {
    const { store } = t.server.deps;
    const lost = await heldExport('inst_x.0a0a0a', 150);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const taken = (await store.jobs.claim(lost.job.id, 'inst_y.0b0b0b', LONG))!;
    expect(taken.leaseOwner).toBe('inst_y.0b0b0b');

    // Both run at once, each into its own file.
    await Promise.all([runExport(t.server.deps, lost), runExport(t.server.deps, { ...lost, job: taken, owner: 'inst_y.0b0b0b' })]);
    expect(await find(lost.job)).toMatchObject({ status: 'completed', storageId: `${lost.job.id}.0b0b0b.json` });
    expect(await filesOf(lost.job)).toEqual([`${lost.job.id}.0b0b0b.json`]);
  });

  it('leaves files that the sweep removes with the job: every attempt\'s', async () => {
    const { store, clock } = t.server.deps;
    const held = await heldExport('inst_x.c0ffee');
    await runExport(t.server.deps, held);
    // A file an attempt left when its instance died between committing it and the completion.
    const stray = await store.exports.create(`${held.job.id}.dead01.json`);
    await stray.write(Buffer.from('{}'));
    await stray.commit();
    expect(await filesOf(held.job)).toHaveLength(2);
    await sweepJobs(t.server.deps, clock.now() + 3 * 3_600_000);
    expect(await filesOf(held.job)).toEqual([]);
  });
});
