import { randomBytes } from 'node:crypto';
import { ALL_SCOPES } from '../lib/api/scopes.ts';
import { issueToken } from '../server/auth/tokens.ts';
import { encodeCursor } from '../server/bookmarks/cursor.ts';
import { openDatabase } from '../server/db/database.ts';
import { newId } from '../server/ids.ts';
import { SqliteAccounts } from '../server/store/sqlite/accounts.ts';
import type { ExportFormat } from '../lib/api/jobs.ts';
import { type ApiClient, apiClient } from './api.ts';
import { type ExportMemory, exportMemory } from './jobs.ts';
import { startShelfServer } from './processes.ts';
import { median, timed } from './stats.ts';
import { type Row, failureRow, fmtBytes, fmtCount, fmtMs, verdict } from './table.ts';
import type { BenchSettings, Workspace } from './workspace.ts';

const SECTION = 'Scale';
/** SHELF_BENCH_SCALE_SIZES=10000,100000 measures fewer sizes (a quicker run); the ratio is then of the largest to the smallest. */
export const SIZES: readonly number[] = process.env.SHELF_BENCH_SCALE_SIZES?.split(',').map(Number) ?? [10_000, 100_000, 1_000_000];
/** Issue 12: a paged or indexed operation at 1,000,000 bookmarks within 2 × its figure at 10,000. */
export const MAX_RATIO = 2;
/** Timed runs of each request at each size, at least: a median of fewer swings with a busy machine. SHELF_BENCH_SCALE_RUNS=41 takes more. */
const MIN_RUNS = Number(process.env.SHELF_BENCH_SCALE_RUNS ?? 11);
const COLLECTIONS = 50;
/** JSON reads the library once in order; HTML once per folder and once more for Unsorted. */
const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'html'];
/** An export of the million takes minutes on a busy machine. */
const EXPORT_TIMEOUT_MS = 20 * 60_000;
const DOMAINS = 1_000;
const TAGS = 200;
/** Every RARE_EVERY-th bookmark, at most RARE_MAX of them, carries the rare word: the same few matches at every size. */
const RARE_WORD = 'quokka';
const RARE_MAX = 10;
const COMMON_WORD = 'guide';
const WORDS = ['notes', 'recipe', 'paper', 'video', 'release', 'manual', 'review', 'talk', 'thread', 'gallery'];

export interface Seeded {
  token: string;
  dir: string;
  deepCursor: string;
  insertMs: number;
  migrateMs: number;
}

/**
 * Issue 12 point 4: the same requests, one at a time and each computed afresh (not from the response cache), at 10,000, 100,000 and 1,000,000
 * bookmarks of one user (seeded by SQL in one transaction), median ms of each, and the
 * 1,000,000 ÷ 10,000 ratio against the 2 × target for the paged and indexed ones.
 */
export async function scaleSection(ws: Workspace, settings: BenchSettings): Promise<Row[]> {
  const runs = Math.max(MIN_RUNS, Math.round(settings.evaluations / 5));
  const figures = new Map<string, number[]>();
  const libraries: Seeded[] = [];
  for (const size of SIZES) libraries.push(await seed(ws, size));
  const seeding = libraries.map((seeded, i) => `${fmtCount(SIZES[i]!)}: ${seconds(seeded.insertMs)} + ${seconds(seeded.migrateMs)}`);
  // Every size's server at once, each request sent to each in turn: a busy machine slows all sizes alike.
  const servers: Awaited<ReturnType<typeof startShelfServer>>[] = [];
  try {
    for (const seeded of libraries) servers.push(await startShelfServer(seeded.dir));
    await timeRequests(
      servers.map((shelf, i) => ({ api: apiClient(shelf.url, libraries[i]!.token), seeded: libraries[i]! })),
      runs,
      figures,
    );
  } catch (err) {
    return [failureRow({ section: SECTION, measurement: `at ${SIZES.map(fmtCount).join(', ')} bookmarks`, target: '' }, err)];
  } finally {
    for (const shelf of servers) await shelf.stop();
  }
  const rows = [...ratioRows(SECTION, figures, runs), ...(await exportRows(SECTION, libraries.map((l) => ({ storeArgs: ['--data', l.dir], token: l.token }))))];
  rows.push({ section: SECTION, measurement: 'seeding by SQL (one transaction) + migration 011', result: seeding.join(' · '), beside: '', target: '', verdict: '' });
  return rows;
}

/**
 * An export of the whole library grows with it in time, but must stream: the server's peak
 * memory during it (a server started for it alone) may not grow with the library. Each format at
 * each size, smallest first; a failed export leaves the figures of the smaller sizes, and says why.
 */
export async function exportRows(section: string, stores: readonly { storeArgs: readonly string[]; token: string }[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const format of EXPORT_FORMATS) {
    const runs: (ExportMemory | Failed)[] = [];
    for (const { storeArgs, token } of stores) {
      if (runs.some((r) => 'error' in r)) break;
      runs.push(await exportMemory(storeArgs, token, format, EXPORT_TIMEOUT_MS).catch((err: unknown) => failed(err)));
    }
    rows.push(exportRow(section, format, runs));
  }
  return rows;
}

function exportRow(section: string, format: ExportFormat, all: readonly (ExportMemory | Failed)[]): Row {
  const runs = all.filter((r): r is ExportMemory => !('error' in r));
  const failure = all.find((r): r is Failed => 'error' in r);
  const ratio = runs.length === SIZES.length ? runs.at(-1)!.peakRss / runs[0]!.peakRss : NaN;
  return {
    section,
    measurement: `export ${format} of the whole library (start → download) · the server's peak RSS`,
    result: `${runs.map((r) => fmtMs(r.ms)).join(' → ')} · ${runs.map((r) => fmtBytes(r.bytes)).join(' → ')} · peak RSS ${runs.map((r) => fmtBytes(r.peakRss)).join(' → ')}`,
    beside: `RSS when ready ${runs.map((r) => fmtBytes(r.startRss)).join(' → ')}; peak ${fmtCount(SIZES.at(-1)!)} ÷ ${fmtCount(SIZES[0]!)}: ${ratio.toFixed(1)} ×${failure ? `; then ${failure.error}` : ''}`,
    target: `peak ≤ ${MAX_RATIO} ×`,
    verdict: failure ? 'ERROR' : verdict(ratio <= MAX_RATIO),
  };
}

interface Failed {
  error: string;
}

const failed = (err: unknown): Failed => ({ error: err instanceof Error ? err.message.split('\n')[0]! : String(err) });

const bookmarkId = (i: number): string => `bm_${i.toString(16).padStart(20, '0')}`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

type Request = () => Promise<unknown>;

/** One row per request: its medians at each size, and the largest size's against the smallest's. */
export function ratioRows(section: string, figures: Map<string, number[]>, runs: number): Row[] {
  return [...figures].map(([label, ms]): Row => {
    const ratio = ms.at(-1)! / ms[0]!;
    return {
      section,
      measurement: label,
      result: `${ms.map(fmtMs).join(' → ')} (median of ${runs})`,
      beside: `${fmtCount(SIZES.at(-1)!)} ÷ ${fmtCount(SIZES[0]!)}: ${ratio.toFixed(1)} ×`,
      target: `≤ ${MAX_RATIO} ×`,
      verdict: verdict(ratio <= MAX_RATIO),
    };
  });
}

/** A server holding one seeded library, and how to reach it. */
export interface Target {
  api: ApiClient;
  seeded: Seeded;
}

/**
 * Each request's median ms over `runs` at each target, appended to `figures` under its label in the
 * targets' order. Each run sends the request to every target in turn, so that the machine's load
 * at that moment weighs on every size rather than on whichever was measured then.
 */
export async function timeRequests(targets: readonly Target[], runs: number, figures: Map<string, number[]>): Promise<void> {
  const requests = await Promise.all(targets.map(({ api, seeded }) => requestsOf(api, seeded)));
  const uncache = targets.map(({ api }) => {
    // A write moves the store version, so that each timed read is computed rather than served from the response cache.
    let favorite = false;
    return () => api.call('PUT', `/bookmarks/${bookmarkId(0)}/favorite`, { isFavorite: (favorite = !favorite) });
  });
  for (const [i, [label]] of requests[0]!.entries()) {
    const times = targets.map((): number[] => []);
    const sends = requests.map((list) => list[i]![1]);
    for (const send of sends) await send(); // warms the statement and the page cache
    for (let run = 0; run < runs; run++) {
      for (const [k, send] of sends.entries()) {
        await uncache[k]!();
        times[k]!.push((await timed(send)).ms);
      }
    }
    figures.set(label, [...(figures.get(label) ?? []), ...times.map(median)]);
  }
}

async function requestsOf(api: ApiClient, seeded: Seeded): Promise<[string, Request][]> {
  const folder = (await api.call('POST', '/smart-folders', {
    name: 'Bench: tag contains',
    rules: { match: 'all', conditions: [{ field: 'tag', operator: 'contains', value: 'topic-1' }] },
  })) as { id: string };
  let created = 0;
  const get = (path: string): Request => () => api.call('GET', path);
  return [
    ['GET /bookmarks?limit=50 (first page)', get('/bookmarks?limit=50')],
    ['GET /bookmarks?limit=50 (a page in the middle)', get(`/bookmarks?limit=50&cursor=${seeded.deepCursor}`)],
    [`GET /bookmarks/search (common word, "${COMMON_WORD}")`, get(`/bookmarks/search?q=${COMMON_WORD}`)],
    [`GET /bookmarks/search (rare word, ${RARE_MAX} matches)`, get(`/bookmarks/search?q=${RARE_WORD}`)],
    ['GET /bookmarks/stats', get('/bookmarks/stats')],
    [`GET /bookmarks/domains (${fmtCount(DOMAINS)} domains)`, get('/bookmarks/domains')],
    [`GET /bookmarks/duplicates (one group of ${RARE_MAX})`, get('/bookmarks/duplicates')],
    [`GET /collections (${COLLECTIONS})`, get('/collections')],
    [`GET /tags (${TAGS})`, get('/tags')],
    ['smart-folder page (tag contains)', get(`/smart-folders/${folder.id}/bookmarks`)],
    ['POST /bookmarks', () => api.call('POST', '/bookmarks', { url: `https://bench-create.example/${created++}`, title: 'Created' })],
  ];
}

/** Migration 011 (search index, kept counts) fills itself in bulk after the seeding, rather than row by row during it. */
const BULK_FILLED_FROM = '011';

/**
 * A data directory whose user holds `size` bookmarks, written by SQL in one transaction into
 * the schema before BULK_FILLED_FROM; the full migration then builds the index and the counts.
 */
export async function seed(ws: Workspace, size: number, name = 'scale'): Promise<Seeded> {
  const dir = ws.emptyDir(`${name}-${size}`);
  const db = openDatabase(dir, { migrateBefore: BULK_FILLED_FROM });
  let userId: string;
  let token: string;
  let insertMs: number;
  try {
    const accounts = new SqliteAccounts(db);
    userId = (await accounts.createUser({ name: 'Scale', email: 'scale@example.com', plan: 'pro' }, Date.now())).id;
    token = (await issueToken(accounts, { userId, name: 'bench', scopes: [...ALL_SCOPES], expiresAt: null }, Date.now())).token;
    const started = performance.now();
    db.transaction(() => insertBookmarks(db, userId, size))();
    insertMs = performance.now() - started;
  } finally {
    db.close();
  }
  const started = performance.now();
  const full = openDatabase(dir);
  try {
    const migrateMs = performance.now() - started;
    full.exec('ANALYZE');
    const middle = full
      .prepare<[string, number], { seq: number; created_at: number }>(
        'SELECT seq, created_at FROM bookmarks WHERE user_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, seq DESC LIMIT 1 OFFSET ?',
      )
      .get(userId, Math.floor(size / 2))!;
    const deepCursor = encodeCursor({ order: 'newest', seq: middle.seq, time: middle.created_at, text: '' });
    return { token, dir, deepCursor, insertMs, migrateMs };
  } finally {
    full.close();
  }
}

function insertBookmarks(db: ReturnType<typeof openDatabase>, userId: string, size: number): void {
  const now = Date.now();
  const addCollection = db.prepare(
    `INSERT INTO collections (id, user_id, name, sort_order, share_slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const collections = Array.from({ length: COLLECTIONS }, (_, i) => {
    const id = newId('col');
    addCollection.run(id, userId, `Collection ${i}`, i, randomBytes(8).toString('hex'), now, now);
    return id;
  });
  const addTag = db.prepare('INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES (?, ?, ?, ?, ?)');
  const tags = Array.from({ length: TAGS }, (_, i) => {
    const id = newId('tag');
    addTag.run(id, userId, `topic-${i}`, `topic-${i}`, now);
    return id;
  });
  const insert = db.prepare(
    `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, type, is_favorite, collection_id, domain,
       metadata_status, link_status, last_checked_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'link', ?, ?, ?, 'complete', 'unchecked', ?, ?, ?)`,
  );
  const link = db.prepare('INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, ?)');
  const rareEvery = Math.floor(size / RARE_MAX);
  for (let i = 0; i < size; i++) {
    const id = bookmarkId(i);
    const domain = `site${i % DOMAINS}.example`;
    const word = i % rareEvery === 0 ? RARE_WORD : i % 10 === 0 ? COMMON_WORD : WORDS[i % WORDS.length]!;
    const createdAt = now - (size - i) * 1000;
    // RARE_MAX bookmarks share one normalised URL: the same duplicate group at every size.
    const urlKey = i % rareEvery === 1 ? 'duplicated.example/same' : `${domain}/page/${i}`;
    insert.run(id, userId, `https://${domain}/page/${i}`, urlKey, `A ${word} about item ${i}`, `Saved page number ${i}`,
      i % 20 === 0 ? 1 : 0, i % 4 === 0 ? null : collections[i % COLLECTIONS]!, domain, createdAt, createdAt, createdAt);
    if (i % 3 === 0) link.run(id, tags[i % TAGS]!);
  }
}
