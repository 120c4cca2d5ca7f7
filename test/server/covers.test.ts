import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SuccessResult } from '../../lib/api/common.ts';
import { CoverSaved, MAX_COVER_BYTES, MAX_PENDING_UPLOADS, StoredFile, UploadReservation } from '../../lib/api/covers.ts';
import { ErrorEnvelope } from '../../lib/api/envelope.ts';
import { StorageService } from '../../server/storage/service.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
import { type ApiResponse, type TestServer, type TestUser, apiFor, nextIp, startTestServer } from '../support/server.ts';
import { bytesKept } from '../support/stored-bytes.ts';
import { count } from './collections-tags-fixtures.ts';

// Tiny files whose first bytes are each accepted type's magic number: all that sniffing reads.
const ascii = (text: string): number[] => [...text].map((ch) => ch.charCodeAt(0));
const filler = (n: number): number[] => Array.from({ length: n }, (_, i) => i % 251);
const IMAGES = {
  'image/png': new Uint8Array([0x89, ...ascii('PNG\r\n\x1a\n'), ...filler(40)]),
  'image/gif': new Uint8Array([...ascii('GIF89a'), ...filler(30)]),
  'image/jpeg': new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...filler(50)]),
  'image/webp': new Uint8Array([...ascii('RIFF'), 40, 0, 0, 0, ...ascii('WEBPVP8 '), ...filler(32)]),
};
type ImageType = keyof typeof IMAGES;
const PNG = IMAGES['image/png'];
const TEXT = new TextEncoder().encode('just some words, not a picture');

const MINUTE = 60_000;
const EXPIRY = 15 * MINUTE + 1000;

let t: TestServer;
let db: RawDb;

beforeAll(async () => {
  t = await startTestServer();
  // Bookmarks are another module's; the fixtures write their rows directly, as that module stores them.
  db = openRawDb({ dataDir: t.dataDir, databaseUrl: t.server.deps.config.databaseUrl });
});

afterAll(async () => {
  await db.close();
  await t.close();
});

let bookmarkCounter = 0;
async function insertBookmark(userId: string, server: TestServer = t, raw: RawDb = db): Promise<string> {
  const id = `bm_cover_test_${++bookmarkCounter}`;
  const now = server.server.deps.clock.now();
  await raw.run(
    `INSERT INTO bookmarks (id, user_id, url, url_key, title, domain, metadata_status, link_status, last_checked_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'A page', 'example.com', 'skipped', 'unchecked', ?, ?, ?)`,
    id, userId, `https://example.com/${id}`, `example.com/${id}`, now, now, now,
  );
  return id;
}

const coverOf = async (bookmarkId: string) =>
  (await db.get<{ cover_file_id: string | null; cover_image: string | null }>('SELECT cover_file_id, cover_image FROM bookmarks WHERE id = ?', bookmarkId))!;

const bytesExist = (fileId: string): Promise<boolean> => bytesKept(t, fileId);
/** Every file whose bytes are kept, whole or being written: files on disk beside SQLite, rows in PostgreSQL. */
const filesKept = async (): Promise<string[]> =>
  t.server.deps.config.databaseUrl === null
    ? readdirSync(join(t.dataDir, 'files')).sort()
    : (await db.all<{ id: string }>('SELECT id FROM file_bytes ORDER BY id')).map((r) => r.id);

async function send(url: string, method: string, body?: Uint8Array<ArrayBuffer>, type?: string): Promise<ApiResponse & { bytes: Uint8Array }> {
  const res = await fetch(url, { method, body, headers: type === undefined ? {} : { 'Content-Type': type } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    // not JSON: the bytes are the answer
  }
  return { status: res.status, headers: res.headers, body: parsed, bytes };
}

const upload = (url: string, bytes: Uint8Array<ArrayBuffer>, type?: string) => send(url, 'POST', bytes, type);

async function reserve(u: TestUser, bookmarkId: string): Promise<z.infer<typeof UploadReservation>> {
  return dataOf(await u.api('POST', `/bookmarks/${bookmarkId}/cover/upload-url`), UploadReservation, 201);
}

async function reserveAndUpload(u: TestUser, bookmarkId: string, bytes: Uint8Array<ArrayBuffer> = PNG, type = 'image/png') {
  const reservation = await reserve(u, bookmarkId);
  const res = await upload(reservation.uploadUrl, bytes, type);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...reservation, storageId: z.strictObject(StoredFile.shape).parse(res.body).storageId };
}

const save = (u: TestUser, bookmarkId: string, body: { storageId: string; reservationId: string }) =>
  u.api('POST', `/bookmarks/${bookmarkId}/cover`, { body });

async function coverFor(u: TestUser, bookmarkId: string, bytes: Uint8Array<ArrayBuffer> = PNG, type = 'image/png') {
  const { storageId, reservationId } = await reserveAndUpload(u, bookmarkId, bytes, type);
  const { url } = dataOf(await save(u, bookmarkId, { storageId, reservationId }), CoverSaved);
  return { storageId, url };
}

describe('cover upload, three steps', () => {
  it.each(Object.keys(IMAGES) as ImageType[])('stores and serves a %s cover', async (type) => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);

    const res = await u.api('POST', `/bookmarks/${bookmarkId}/cover/upload-url`);
    const { uploadUrl, reservationId } = dataOf(res, UploadReservation, 201);
    const target = new URL(uploadUrl);
    expect(target.origin).toBe(t.server.origin);
    expect(target.pathname).toMatch(/^\/storage\/uploads\/[A-Za-z0-9_-]{43}$/);

    const uploaded = await upload(uploadUrl, IMAGES[type], type);
    expect(uploaded.status).toBe(201);
    expect(uploaded.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const { storageId } = z.strictObject(StoredFile.shape).parse(uploaded.body);

    const { url } = dataOf(await save(u, bookmarkId, { storageId, reservationId }), CoverSaved);
    expect(url).toBe(`${t.server.origin}/storage/files/${storageId}`);
    expect(await coverOf(bookmarkId)).toEqual({ cover_file_id: storageId, cover_image: url });

    const served = await send(url, 'GET');
    expect(served.status).toBe(200);
    expect(served.headers.get('Content-Type')).toBe(type);
    expect(served.headers.get('Content-Length')).toBe(String(IMAGES[type].byteLength));
    expect(served.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(served.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(served.bytes).toEqual(IMAGES[type]);
    expect(await t.server.deps.storage.coverUsage(u.userId)).toBe(IMAGES[type].byteLength);
  });

  it('builds the upload URL from the origin the request came to', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const origin = `http://localhost:${new URL(t.baseUrl).port}`;
    const viaLocalhost = apiFor(`${origin}/v1`, { token: u.token, ip: nextIp() });
    const { uploadUrl } = dataOf(await viaLocalhost('POST', `/bookmarks/${bookmarkId}/cover/upload-url`), UploadReservation, 201);
    expect(new URL(uploadUrl).origin).toBe(origin);
    expect((await upload(uploadUrl, PNG, 'image/png')).status).toBe(201);
  });

  it('behind a trusted proxy, takes the scheme from X-Forwarded-Proto, http or https only', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const host = new URL(t.baseUrl).host;
    const originFor = async (proto: string) => {
      const res = await u.api('POST', `/bookmarks/${bookmarkId}/cover/upload-url`, { headers: { 'X-Forwarded-Proto': proto } });
      return new URL(dataOf(res, UploadReservation, 201).uploadUrl).origin;
    };
    expect(await originFor('https')).toBe(`https://${host}`);
    expect(await originFor('HTTPS, http')).toBe(`https://${host}`);
    expect(await originFor('javascript')).toBe(t.server.origin);
  });

  it("without --trust-proxy, X-Forwarded-Proto is the client's word and is not used", async () => {
    const direct = await startTestServer({ proxyHops: 0 });
    const raw = openRawDb({ dataDir: direct.dataDir, databaseUrl: direct.server.deps.config.databaseUrl });
    try {
      const u = await direct.user();
      const bookmarkId = await insertBookmark(u.userId, direct, raw);
      const res = await u.api('POST', `/bookmarks/${bookmarkId}/cover/upload-url`, { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(new URL(dataOf(res, UploadReservation, 201).uploadUrl).origin).toBe(direct.server.origin);
    } finally {
      await raw.close();
      await direct.close();
    }
  });

  it('answers a CORS preflight for the upload URL', async () => {
    const u = await t.user();
    const { uploadUrl } = await reserve(u, await insertBookmark(u.userId));
    const res = await send(uploadUrl, 'OPTIONS');
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Headers')).toContain('Content-Type');
  });

  it('serves nothing for an upload that was never saved, nor for unknown ids', async () => {
    const u = await t.user();
    const { storageId } = await reserveAndUpload(u, await insertBookmark(u.userId));
    expectError(await send(`${t.server.origin}/storage/files/${storageId}`, 'GET'), 404, 'NOT_FOUND');
    expectError(await send(`${t.server.origin}/storage/files/fil_${'0'.repeat(32)}`, 'GET'), 404, 'NOT_FOUND');
    expectError(await send(`${t.server.origin}/storage/files/..%2Fshelf.db`, 'GET'), 404, 'NOT_FOUND');
  });
});

describe('replacing and removing a cover', () => {
  it('frees the replaced cover: bytes, URL and quota', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const first = await coverFor(u, bookmarkId, PNG, 'image/png');
    const gif = IMAGES['image/gif'];
    const second = await coverFor(u, bookmarkId, gif, 'image/gif');

    expect((await coverOf(bookmarkId)).cover_file_id).toBe(second.storageId);
    expect(await bytesExist(first.storageId)).toBe(false);
    expect(await bytesExist(second.storageId)).toBe(true);
    expectError(await send(first.url, 'GET'), 404, 'NOT_FOUND');
    expect(await t.server.deps.storage.coverUsage(u.userId)).toBe(gif.byteLength);
  });

  it('DELETE removes the cover and frees it; again, or with no cover, it still succeeds', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const { storageId, url } = await coverFor(u, bookmarkId);

    expect(dataOf(await u.api('DELETE', `/bookmarks/${bookmarkId}/cover`), SuccessResult)).toEqual({ success: true });
    expect(await coverOf(bookmarkId)).toEqual({ cover_file_id: null, cover_image: null });
    expect(await bytesExist(storageId)).toBe(false);
    expectError(await send(url, 'GET'), 404, 'NOT_FOUND');
    expect(await t.server.deps.storage.coverUsage(u.userId)).toBe(0);

    expect(dataOf(await u.api('DELETE', `/bookmarks/${bookmarkId}/cover`), SuccessResult)).toEqual({ success: true });
    expectError(await u.api('DELETE', '/bookmarks/bm_missing/cover'), 404, 'NOT_FOUND');
  });
});

describe('files the save refuses', () => {
  it('refuses bytes of one type sent as another (a lying Content-Type), changing nothing', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const pair = await reserveAndUpload(u, bookmarkId, PNG, 'image/gif');
    const message = expectError(await save(u, bookmarkId, pair), 422, 'INVALID_FILE_TYPE');
    expect(message).toContain('PNG');
    expect((await coverOf(bookmarkId)).cover_file_id).toBeNull();
    expect(await t.server.deps.storage.coverUsage(u.userId)).toBe(0);
    // Not consumed: the same save is judged on the file again, not refused as a used reservation.
    expectError(await save(u, bookmarkId, pair), 422, 'INVALID_FILE_TYPE');
  });

  it('refuses a text file sent as an image', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const pair = await reserveAndUpload(u, bookmarkId, TEXT, 'image/png');
    expectError(await save(u, bookmarkId, pair), 422, 'INVALID_FILE_TYPE');
    expect((await coverOf(bookmarkId)).cover_file_id).toBeNull();
  });

  it('accepts image bytes sent without a Content-Type claim', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const { url } = await coverFor(u, bookmarkId, IMAGES['image/jpeg'], 'application/octet-stream');
    expect((await send(url, 'GET')).headers.get('Content-Type')).toBe('image/jpeg');
  });

  it('stops reading past 10 MB: the upload and the save answer FILE_TOO_LARGE and nothing is kept', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const { uploadUrl, reservationId } = await reserve(u, bookmarkId);
    const big = new Uint8Array(MAX_COVER_BYTES + 1);
    big.set(PNG);
    const before = await filesKept();

    const res = await upload(uploadUrl, big, 'image/png');
    expectError(res, 422, 'FILE_TOO_LARGE');
    const { storageId } = z.extend(ErrorEnvelope, { storageId: z.string() }).parse(res.body);
    expect(await filesKept()).toEqual(before);

    expectError(await save(u, bookmarkId, { storageId, reservationId }), 422, 'FILE_TOO_LARGE');
    expect((await coverOf(bookmarkId)).cover_file_id).toBeNull();
    expectError(await upload(uploadUrl, PNG, 'image/png'), 400, 'RESERVATION_INVALID');
  });

  it('accepts a cover of exactly 10 MB', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const exact = new Uint8Array(MAX_COVER_BYTES);
    exact.set(PNG);
    const { storageId } = await coverFor(u, bookmarkId, exact, 'image/png');
    expect(await t.server.deps.storage.coverUsage(u.userId)).toBe(MAX_COVER_BYTES);
    expect(dataOf(await u.api('DELETE', `/bookmarks/${bookmarkId}/cover`), SuccessResult).success).toBe(true);
    expect(await bytesExist(storageId)).toBe(false);
  });

  it('refuses a save past the storage quota (lowered), counting the new file but not the one it replaces', async () => {
    const { store, clock } = t.server.deps;
    const storage = new StorageService({ store, clock, quotaBytes: 100 });
    const u = await t.user();
    const [one, two] = [await insertBookmark(u.userId), await insertBookmark(u.userId)];
    const sixty = new Uint8Array(60);
    sixty.set(PNG.subarray(0, 8));
    const uploadFor = async (bookmarkId: string) => {
      const { uploadUrl, reservationId } = await storage.reserveCover(u.userId, bookmarkId, t.server.origin);
      const { storageId } = StoredFile.parse((await upload(uploadUrl, sixty, 'image/png')).body);
      return { storageId, reservationId };
    };
    const saveWith = (bookmarkId: string, pair: { storageId: string; reservationId: string }) =>
      storage.saveCover(u.userId, bookmarkId, pair, t.server.origin);

    await saveWith(one, await uploadFor(one));
    const second = await uploadFor(two);
    await expect(saveWith(two, second)).rejects.toMatchObject({ code: 'STORAGE_LIMIT_REACHED', status: 422 });
    expect((await coverOf(two)).cover_file_id).toBeNull();
    expect(await storage.coverUsage(u.userId)).toBe(60);

    // Replacing: 60 - 60 + 60 stays within 100.
    const replacement = await uploadFor(one);
    await saveWith(one, replacement);
    expect(await storage.coverUsage(u.userId)).toBe(60);

    // The refused save left its reservation usable: once space is freed, it goes through.
    await storage.deleteCover(u.userId, one);
    await saveWith(two, second);
    expect((await coverOf(two)).cover_file_id).toBe(second.storageId);
  });
});

describe('reservations', () => {
  it('expire after 15 minutes: upload and save refused, the unsaved file freed', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const uploaded = await reserveAndUpload(u, bookmarkId);
    const { uploadUrl } = await reserve(u, bookmarkId);

    t.server.deps.clock.advance(EXPIRY); // the clock alone: no clean-up yet
    expect(expectError(await save(u, bookmarkId, uploaded), 400, 'RESERVATION_INVALID')).toContain('expired');
    expect(expectError(await upload(uploadUrl, PNG, 'image/png'), 400, 'RESERVATION_INVALID')).toContain('expired');

    await t.advance(0); // runs the clean-up
    expect(await bytesExist(uploaded.storageId)).toBe(false);
    expectError(await save(u, bookmarkId, uploaded), 400, 'RESERVATION_INVALID');
    expect((await coverOf(bookmarkId)).cover_file_id).toBeNull();
  });

  it('clean-up frees never-saved uploads 16 minutes on, and keeps saved covers', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const abandoned = await reserveAndUpload(u, await insertBookmark(u.userId));
    const saved = await coverFor(u, bookmarkId);
    await t.advance(16 * MINUTE);
    expect(await bytesExist(abandoned.storageId)).toBe(false);
    expect(await bytesExist(saved.storageId)).toBe(true);
    expect((await send(saved.url, 'GET')).status).toBe(200);
  });

  it('are single use: a second upload and a second save are refused', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const { uploadUrl, reservationId } = await reserve(u, bookmarkId);
    const { storageId } = StoredFile.parse((await upload(uploadUrl, PNG, 'image/png')).body);
    expect(expectError(await upload(uploadUrl, PNG, 'image/png'), 400, 'RESERVATION_INVALID')).toContain('already used');

    dataOf(await save(u, bookmarkId, { storageId, reservationId }), CoverSaved);
    const message = expectError(await save(u, bookmarkId, { storageId, reservationId }), 400, 'RESERVATION_INVALID');
    expect(message).toContain('already used');
    expect((await coverOf(bookmarkId)).cover_file_id).toBe(storageId);
  });

  it('are bound to their bookmark', async () => {
    const u = await t.user();
    const [mine, other] = [await insertBookmark(u.userId), await insertBookmark(u.userId)];
    const pair = await reserveAndUpload(u, mine);
    expect(expectError(await save(u, other, pair), 400, 'RESERVATION_INVALID')).toContain('another bookmark');
    expect((await coverOf(other)).cover_file_id).toBeNull();
    dataOf(await save(u, mine, pair), CoverSaved);
  });

  it('need the file uploaded through them, after it arrived', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const first = await reserveAndUpload(u, bookmarkId);
    const second = await reserveAndUpload(u, bookmarkId);
    const swapped = { reservationId: first.reservationId, storageId: second.storageId };
    expect(expectError(await save(u, bookmarkId, swapped), 400, 'RESERVATION_INVALID')).toContain('is not the file');

    const { reservationId } = await reserve(u, bookmarkId);
    const early = { reservationId, storageId: first.storageId };
    expect(expectError(await save(u, bookmarkId, early), 400, 'RESERVATION_INVALID')).toContain('Nothing has been uploaded');
    expect((await coverOf(bookmarkId)).cover_file_id).toBeNull();
  });

  it('of another user behave like ones that do not exist', async () => {
    const [owner, stranger] = [await t.user(), await t.user()];
    const ownersBookmark = await insertBookmark(owner.userId);
    const pair = await reserveAndUpload(owner, ownersBookmark);
    const strangersBookmark = await insertBookmark(stranger.userId);

    expect(expectError(await save(stranger, strangersBookmark, pair), 400, 'RESERVATION_INVALID')).toContain('no cover-upload reservation');
    expectError(await save(stranger, ownersBookmark, pair), 404, 'NOT_FOUND');
    expectError(await stranger.api('POST', `/bookmarks/${ownersBookmark}/cover/upload-url`), 404, 'NOT_FOUND');
    expectError(await stranger.api('DELETE', `/bookmarks/${ownersBookmark}/cover`), 404, 'NOT_FOUND');
    expect((await coverOf(strangersBookmark)).cover_file_id).toBeNull();
    dataOf(await save(owner, ownersBookmark, pair), CoverSaved);
  });

  it('allow 5 outstanding per user; the 6th is refused until one is used or expires', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const first = await reserveAndUpload(u, bookmarkId);
    for (let i = 1; i < MAX_PENDING_UPLOADS; i++) await reserve(u, bookmarkId);

    const refused = await u.api('POST', `/bookmarks/${bookmarkId}/cover/upload-url`);
    expectError(refused, 429, 'TOO_MANY_PENDING_UPLOADS');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Another user is not affected.
    const other = await t.user();
    await reserve(other, await insertBookmark(other.userId));

    dataOf(await save(u, bookmarkId, first), CoverSaved);
    await reserve(u, bookmarkId);
    expectError(await u.api('POST', `/bookmarks/${bookmarkId}/cover/upload-url`), 429, 'TOO_MANY_PENDING_UPLOADS');

    await t.advance(EXPIRY);
    await reserve(u, bookmarkId);
  });

  it('are only for active bookmarks of the user', async () => {
    const u = await t.user();
    const trashed = await insertBookmark(u.userId);
    await db.run('UPDATE bookmarks SET deleted_at = ? WHERE id = ?', t.server.deps.clock.now(), trashed);
    expectError(await u.api('POST', `/bookmarks/${trashed}/cover/upload-url`), 404, 'NOT_FOUND');
    expectError(await u.api('POST', '/bookmarks/bm_nope/cover/upload-url'), 404, 'NOT_FOUND');
  });
});

describe('the upload request', () => {
  it('answers 400 to an empty body and leaves the URL usable', async () => {
    const u = await t.user();
    const { uploadUrl } = await reserve(u, await insertBookmark(u.userId));
    expectError(await upload(uploadUrl, new Uint8Array(0), 'image/png'), 400, 'VALIDATION_ERROR');
    expectError(await send(uploadUrl, 'POST'), 400, 'VALIDATION_ERROR');
    expect((await upload(uploadUrl, PNG, 'image/png')).status).toBe(201);
  });

  it('refuses an unknown upload URL', async () => {
    const res = await upload(`${t.server.origin}/storage/uploads/${'A'.repeat(43)}`, PNG, 'image/png');
    expectError(res, 400, 'RESERVATION_INVALID');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expectError(await upload(`${t.server.origin}/storage/uploads/short`, PNG, 'image/png'), 400, 'RESERVATION_INVALID');
  });
});

describe('the save request', () => {
  it('validates its body', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const message = expectError(await u.api('POST', `/bookmarks/${bookmarkId}/cover`, { body: { reservationId: 'rsv_x' } }), 400, 'VALIDATION_ERROR');
    expect(message).toContain('storageId');
  });
});

describe('permanent deletion of a bookmark', () => {
  it('takes its cover: the URL answers 404 and clean-up frees the bytes', async () => {
    const u = await t.user();
    const bookmarkId = await insertBookmark(u.userId);
    const { storageId, url } = await coverFor(u, bookmarkId);
    await db.run('DELETE FROM bookmarks WHERE id = ?', bookmarkId);

    expectError(await send(url, 'GET'), 404, 'NOT_FOUND');
    expect(await t.server.deps.storage.coverUsage(u.userId)).toBe(0);
    await t.advance(0);
    expect(await bytesExist(storageId)).toBe(false);
    expect(await count(db, 'SELECT COUNT(*) AS n FROM stored_files WHERE id = ?', storageId)).toBe(0);
    expectError(await send(url, 'GET'), 404, 'NOT_FOUND');
  });
});
