import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { Id } from '../lib/api/common.ts';
import { type ExportFormat, ImportReserved, Job, JobCreated, MAX_IMPORT_BYTES } from '../lib/api/jobs.ts';
import { BOOKMARK_COLUMNS } from '../server/store/sqlite/bookmark-rows.ts';
import { type ApiClient, apiClient } from './api.ts';
import { JSON_FORMATS, largestFile, libraryFile } from './json-files.ts';
import { generateLibrary } from './library.ts';
import { netscapeFile } from './netscape-file.ts';
import { type ShelfServer, peakRssOf, startShelfServer, startShelfServerOn } from './processes.ts';
import { median, timed } from './stats.ts';
import { type Row, fmtBytes, fmtCount, fmtMs, measured, verdict } from './table.ts';
import { type BenchSettings, LIBRARY_SIZE, type Workspace } from './workspace.ts';

const FORMATS: readonly ExportFormat[] = ['json', 'csv', 'html'];
const MAX_EXPORT_MS = 1000;
const MAX_IMPORT_MS = 2000;
const POLL_MS = 10;
const JOB_TIMEOUT_MS = 120_000;
/** The storage service's answer to an upload (not enveloped). */
const Uploaded = z.object({ storageId: Id });

/** Issue 3: exporting the seeded library to each format, beside SQLite reading it all. */
export async function exportSection(ws: Workspace, settings: BenchSettings): Promise<Row[]> {
  const raw = ws.rawRead(
    `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.user_id = @userId AND b.deleted_at IS NULL ORDER BY b.created_at DESC, b.seq DESC`,
  );
  const beside = `SQLite read of all ${fmtCount(raw.rows)}: ${fmtMs(raw.ms)}`;
  const shelf = await startShelfServer(ws.seededDir('export'));
  try {
    const api = apiClient(shelf.url, ws.token);
    const rows: Row[] = [];
    for (const format of FORMATS) {
      rows.push(
        await measured(
          { section: 'Export', measurement: `${format}, ${fmtCount(LIBRARY_SIZE)} bookmarks (start → download)`, target: `≤ ${fmtMs(MAX_EXPORT_MS)}`, beside },
          async () => {
            const runs: { ms: number; value: number }[] = [];
            for (let i = 0; i < settings.exportRuns; i++) runs.push(await timed(() => exportOnce(api, format)));
            const ms = median(runs.map((r) => r.ms));
            const of = runs.length > 1 ? ` (median of ${runs.length})` : '';
            return { result: `${fmtMs(ms)}${of} · ${fmtBytes(runs[0]!.value)}`, beside, verdict: verdict(ms <= MAX_EXPORT_MS) };
          },
        ),
      );
    }
    rows.push(await exportMemoryRow(ws));
    return rows;
  } finally {
    await shelf.stop();
  }
}

/** The server's memory during one export of each format (each by a server started for it); the scale section has it at 1,000,000. */
async function exportMemoryRow(ws: Workspace): Promise<Row> {
  const dir = ws.seededDir('export-memory');
  return measured({ section: 'Export', measurement: `server's peak RSS during one export, ${fmtCount(LIBRARY_SIZE)} bookmarks`, target: '' }, async () => {
    const runs: string[] = [];
    for (const format of FORMATS) {
      const run = await exportMemory(['--data', dir], ws.token, format);
      runs.push(`${format} ${fmtBytes(run.peakRss)} (${fmtBytes(run.startRss)} when ready)`);
    }
    return { result: runs.join(' · '), beside: '', verdict: '' };
  });
}

/** Issue 3: importing the library as a Netscape file into an empty library, beside SQLite inserting it in one transaction. */
export async function importSection(ws: Workspace): Promise<Row[]> {
  const html = Buffer.from(netscapeFile(ws.library));
  writeFileSync(ws.file('bookmarks.html'), html);
  const shelf = await startShelfServer(ws.emptyDir('import'));
  const beside = `SQLite insert in one transaction: ${fmtMs(ws.insertMs)}`;
  let row: Row;
  try {
    row = await measured(
      {
        section: 'Import',
        measurement: `Netscape HTML, ${fmtCount(ws.library.bookmarks.length)} bookmarks, ${fmtBytes(html.length)} (reserve → completed)`,
        target: `≤ ${fmtMs(MAX_IMPORT_MS)}`,
        beside,
      },
      async () => {
        const readyRss = shelf.rssBytes() ?? NaN;
        const { ms, value: job } = await importIntoEmpty(shelf, html);
        const imported = job.result?.imported ?? NaN;
        const counts = job.result ? ` · ${fmtCount(imported)} imported, ${job.result.skipped} skipped, ${job.result.duplicates} duplicates` : '';
        const complete = imported === ws.library.bookmarks.length;
        const memory = `server's peak RSS ${fmtBytes(peakRssOf(shelf.pid) ?? NaN)} (${fmtBytes(readyRss)} when ready)`;
        return { result: `${fmtMs(ms)}${counts} · ${memory}`, beside, verdict: verdict(complete && ms <= MAX_IMPORT_MS) };
      },
    );
  } finally {
    await shelf.stop();
  }
  return [row, await jsonImportMemoryRow(ws)];
}

/**
 * The JSON formats are parsed whole (docs/api-decisions.md, "JSON imports are parsed whole"):
 * the server's memory while importing the largest file of each that the upload limit allows,
 * beside a Netscape file (read as a stream) of the same bookmarks, each by a server started for
 * it alone.
 */
async function jsonImportMemoryRow(ws: Workspace): Promise<Row> {
  const measurement = `server's peak RSS over its RSS when ready, importing the largest JSON file of each format within ${fmtBytes(MAX_IMPORT_BYTES)}`;
  return measured({ section: 'Import', measurement, target: 'reported' }, async () => {
    const library = generateLibrary(4 * LIBRARY_SIZE, Date.now());
    const growth = async (name: string, file: Buffer, count: number): Promise<number> => {
      const shelf = await startShelfServer(ws.emptyDir(name));
      try {
        const ready = shelf.rssBytes() ?? NaN;
        const { value: job } = await importIntoEmpty(shelf, new Uint8Array(file));
        if (job.result?.imported !== count) throw new Error(`${name}: ${job.result?.imported ?? 0} of ${count} bookmarks imported`);
        return (peakRssOf(shelf.pid) ?? NaN) - ready;
      } finally {
        await shelf.stop();
      }
    };
    const results: string[] = [];
    const besides: string[] = [];
    for (const [i, format] of JSON_FORMATS.entries()) {
      const { count, file } = await largestFile(format, library, MAX_IMPORT_BYTES);
      results.push(`${format}: ${fmtCount(count)} bookmarks, ${fmtBytes(file.length)}, +${fmtBytes(await growth(`json-memory-${i}`, file, count))}`);
      const html = Buffer.from(await libraryFile('Netscape HTML', library, count));
      besides.push(`${fmtCount(count)} as HTML (${fmtBytes(html.length)}): +${fmtBytes(await growth(`json-memory-html-${i}`, html, count))}`);
    }
    return { result: results.join(' · '), beside: besides.join(' · '), verdict: '' };
  });
}

export interface ExportMemory {
  ms: number;
  bytes: number;
  /** The server's resident memory when it was ready, before the export. */
  startRss: number;
  /** The most it held at once until the file was downloaded. */
  peakRss: number;
}

/**
 * One export by a server started afresh on the store the arguments name (`--data <dir>` or
 * `--database <url>`), so that its peak memory is the export's, not an earlier request's:
 * start → download, and the server's memory.
 */
export async function exportMemory(storeArgs: readonly string[], token: string, format: ExportFormat, timeoutMs = JOB_TIMEOUT_MS): Promise<ExportMemory> {
  const shelf = await startShelfServerOn(storeArgs);
  try {
    const startRss = shelf.rssBytes() ?? NaN;
    const { ms, value: bytes } = await timed(() => exportOnce(apiClient(shelf.url, token), format, timeoutMs));
    return { ms, bytes, startRss, peakRss: peakRssOf(shelf.pid) ?? NaN };
  } finally {
    await shelf.stop();
  }
}

/** Start, poll until completed, download the whole file: answers its size in bytes. */
async function exportOnce(api: ApiClient, format: ExportFormat, timeoutMs = JOB_TIMEOUT_MS): Promise<number> {
  const { jobId } = JobCreated.parse(await api.call('POST', `/export/${format}`));
  await jobDone(api, jobId, timeoutMs);
  const res = await api.raw('POST', `${api.baseUrl}/jobs/${jobId}/download`);
  return (await res.arrayBuffer()).byteLength;
}

/** The file imported into the empty library of a server's first start: reserve → completed, and the job. */
export async function importIntoEmpty(shelf: ShelfServer, html: Uint8Array<ArrayBuffer>, timeoutMs = JOB_TIMEOUT_MS): Promise<{ ms: number; value: Job }> {
  if (shelf.firstToken === null) throw new Error('the import server printed no token on its first start');
  return timed(() => importOnce(apiClient(shelf.url, shelf.firstToken!), html, timeoutMs));
}

/** Reserve, upload the file to the storage service, start, poll until completed. */
async function importOnce(api: ApiClient, file: Uint8Array<ArrayBuffer>, timeoutMs: number): Promise<Job> {
  const { jobId, uploadUrl } = ImportReserved.parse(await api.call('POST', '/import/reserve'));
  const upload = await api.raw('POST', uploadUrl, { body: file, contentType: 'text/html', auth: false });
  const { storageId } = Uploaded.parse(await upload.json());
  await api.call('POST', '/import/start', { jobId, storageId });
  return jobDone(api, jobId, timeoutMs);
}

async function jobDone(api: ApiClient, jobId: string, timeoutMs = JOB_TIMEOUT_MS): Promise<Job> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const job = Job.parse(await api.call('GET', `/jobs/${jobId}`));
    if (job.status === 'completed') return job;
    if (job.status === 'failed') throw new Error(`job ${jobId} failed: ${job.errorMessage ?? 'no message'}`);
    if (performance.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
