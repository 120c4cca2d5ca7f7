import { expect } from 'vitest';
import * as z from 'zod/mini';
import { type Bookmark, BookmarkPage } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { type ExportFormat, ImportReserved, Job, JobCreated } from '../../lib/api/jobs.ts';
import { dataOf } from '../support/expect.ts';
import { openRawDb } from '../support/raw-db.ts';
import type { Api, TestServer, TestUser } from '../support/server.ts';

/** Helpers shared by the import, export and crash tests. */

/**
 * Bookmarks in a file whose import a test kills midway: many batches of 50, so that the kill
 * lands midway. PostgreSQL imports them several times slower than SQLite (about 230 a second,
 * measured at a load average of 6 on 2 cores), so fewer there: still 80 batches.
 */
export const KILLED_IMPORT_COUNT = process.env.SHELF_TEST_POSTGRES_URL === undefined ? 10_000 : 4_000;

/** Waits for the runner to go idle (no polling, so no rate limit is spent), then reads the job. */
export async function settledJob(t: TestServer, u: TestUser, jobId: string): Promise<Job> {
  await t.server.deps.jobRunner.idle();
  return dataOf(await u.api('GET', `/jobs/${jobId}`), Job);
}

/** The user's jobs, read from the database: no endpoint lists jobs. */
export async function jobCount(t: TestServer, u: TestUser): Promise<number> {
  const db = openRawDb({ dataDir: t.dataDir, databaseUrl: t.server.deps.config.databaseUrl });
  try {
    return (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs WHERE user_id = ?', u.userId))!.n;
  } finally {
    await db.close();
  }
}

/** POSTs the file's bytes to an uploadUrl, as a client does; answers the storage service's reply. */
export async function upload(uploadUrl: string, content: string | Buffer): Promise<{ status: number; body: unknown }> {
  const res = await fetch(uploadUrl, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: typeof content === 'string' ? content : new Uint8Array(content) });
  return { status: res.status, body: await res.json() };
}

/** Reserve, upload and start: the answer of POST /import/start and the job id. */
export async function startImportOf(api: Api, content: string | Buffer): Promise<{ jobId: string; started: Job }> {
  const { jobId, uploadUrl } = dataOf(await api('POST', '/import/reserve'), ImportReserved, 201);
  const uploaded = await upload(uploadUrl, content);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const { storageId } = uploaded.body as { storageId: string };
  const started = dataOf(await api('POST', '/import/start', { body: { jobId, storageId } }), Job);
  return { jobId, started };
}

/** A whole import, waited for: the finished job. */
export async function importFile(t: TestServer, u: TestUser, content: string | Buffer): Promise<Job> {
  const { jobId } = await startImportOf(u.api, content);
  return settledJob(t, u, jobId);
}

/** POST /jobs/:id/download as raw bytes (u.api would parse a JSON export). */
export async function download(t: TestServer, u: TestUser, jobId: string): Promise<Response> {
  return fetch(`${t.baseUrl}/jobs/${jobId}/download`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${u.token}`, 'X-Forwarded-For': '10.99.0.1' },
  });
}

/** A whole export, waited for and downloaded. */
export async function exportLibrary(t: TestServer, u: TestUser, format: ExportFormat): Promise<{ job: Job; file: string }> {
  const { jobId } = dataOf(await u.api('POST', `/export/${format}`), JobCreated, 201);
  const job = await settledJob(t, u, jobId);
  expect(job.status, job.errorMessage).toBe('completed');
  const res = await download(t, u, jobId);
  expect(res.status).toBe(200);
  return { job, file: await res.text() };
}

/** Every active bookmark, oldest first, through GET /bookmarks pages of 200. */
export async function allBookmarks(api: Api): Promise<Bookmark[]> {
  const all: Bookmark[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = dataOf(await api('GET', `/bookmarks?limit=200&sortBy=oldest${query}`), BookmarkPage);
    all.push(...page.data);
    cursor = page.cursor;
  } while (cursor !== null);
  return all;
}

/** Folder paths by collection id, from GET /collections. */
export async function collectionPaths(api: Api): Promise<{ collections: Collection[]; paths: Map<string, string[]> }> {
  const collections = dataOf(await api('GET', '/collections'), z.array(Collection));
  const byId = new Map(collections.map((c) => [c.id, c]));
  const pathOf = (c: Collection): string[] => {
    const parent = c.parentId === null ? undefined : byId.get(c.parentId);
    return parent ? [...pathOf(parent), c.name] : [c.name];
  };
  return { collections, paths: new Map(collections.map((c) => [c.id, pathOf(c)])) };
}

/** What an export carries, read through the API, without ids: comparable across users. */
export async function librarySnapshot(api: Api) {
  const { collections, paths } = await collectionPaths(api);
  const bookmarks = await allBookmarks(api);
  return {
    collections: collections
      .map((c) => ({ path: paths.get(c.id)!.join(' / '), icon: c.icon, color: c.color, notes: c.notes }))
      .sort((a, b) => a.path.localeCompare(b.path)),
    bookmarks: bookmarks
      .map((b) => ({
        url: b.url,
        title: b.title,
        description: b.description,
        note: b.note,
        type: b.type,
        isFavorite: b.isFavorite,
        tags: [...b.tags].sort(),
        collection: b.collectionId === null ? null : paths.get(b.collectionId)!.join(' / '),
        createdAt: b.createdAt,
      }))
      .sort((a, b) => a.url.localeCompare(b.url)),
  };
}

const escapeHtml = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** A browser-style Netscape bookmark file: `count` bookmarks spread over `folders` folders (two levels deep). */
export function netscapeFile(count: number, options: { folders?: number; urlOf?: (i: number) => string } = {}): string {
  const folders = options.folders ?? 10;
  const urlOf = options.urlOf ?? ((i: number) => `https://site${i % 300}.example.com/articles/${i}/a-reasonably-long-slug-for-page-${i}?ref=feed`);
  const lines = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">', '<TITLE>Bookmarks</TITLE>', '<H1>Bookmarks</H1>', '<DL><p>'];
  const perFolder = Math.ceil(count / folders);
  for (let f = 0; f < folders; f++) {
    lines.push(`    <DT><H3 ADD_DATE="1600000000">Folder ${f}</H3>`, '    <DL><p>', `        <DT><H3 ADD_DATE="1600000000">Inner ${f}</H3>`, '        <DL><p>');
    for (let i = f * perFolder; i < Math.min(count, (f + 1) * perFolder); i++) {
      lines.push(
        `            <DT><A HREF="${escapeHtml(urlOf(i))}" ADD_DATE="${1600000000 + i}" TAGS="topic${i % 40},group${i % 7}">Bookmark number ${i}: a title of a typical length for a web page</A>`,
        `            <DD>The description of bookmark ${i}, a sentence or two of text as browsers keep it for some bookmarks.`,
      );
    }
    lines.push('        </DL><p>', '    </DL><p>');
  }
  lines.push('</DL><p>');
  return lines.join('\n');
}
