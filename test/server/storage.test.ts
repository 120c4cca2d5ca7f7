import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { StoredFile } from '../../lib/api/covers.ts';
import { DAY } from '../../server/clock.ts';
import { MAX_IMPORT_BYTES } from '../../server/storage/limits.ts';
import { declaredType, sniffImageType } from '../../server/storage/sniff.ts';
import { expectError } from '../support/expect.ts';
import { openRawDb } from '../support/raw-db.ts';
import { type ApiResponse, type TestServer, startTestServer } from '../support/server.ts';
import { storedFileNames } from '../support/stored-bytes.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array<ArrayBuffer> =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((ch) => ch.charCodeAt(0)) : p)));

describe('sniffImageType', () => {
  it.each([
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xdb], 'rest')],
    ['image/png', bytes([0x89], 'PNG\r\n\x1a\n', 'rest')],
    ['image/gif', bytes('GIF87a', 'rest')],
    ['image/gif', bytes('GIF89a', 'rest')],
    ['image/webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8L')],
  ])('recognises %s from its magic bytes', (type, head) => {
    expect(sniffImageType(head)).toBe(type);
  });

  it.each([
    ['text', bytes('hello, world')],
    ['a RIFF file that is not WebP', bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt ')],
    ['GIF of an unknown version', bytes('GIF88a', 'rest')],
    ['a truncated PNG signature', bytes([0x89], 'PNG')],
    ['nothing', new Uint8Array(0)],
  ])('recognises nothing in %s', (_, head) => {
    expect(sniffImageType(head)).toBeNull();
  });
});

describe('declaredType', () => {
  it('reads the media type, dropping parameters and case, folding aliases', () => {
    expect(declaredType('Image/PNG; charset=binary')).toBe('image/png');
    expect(declaredType('image/jpg')).toBe('image/jpeg');
    expect(declaredType('text/plain')).toBe('text/plain');
  });

  it('sees no claim in an absent, empty or generic type', () => {
    expect(declaredType(undefined)).toBeNull();
    expect(declaredType('')).toBeNull();
    expect(declaredType('application/octet-stream')).toBeNull();
  });
});

describe('import files', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const storage = () => t.server.deps.storage;
  /** A file's bytes as the store keeps them (on disk or in the database), or null when gone. */
  const bytesOf = async (id: string): Promise<Buffer | null> => {
    const file = await t.server.deps.store.files.open(id);
    return file && buffer(file.stream);
  };
  const CSV = new TextEncoder().encode('url,title\nhttps://example.com,Example\n');

  async function upload(url: string, body?: Uint8Array<ArrayBuffer>, type = 'text/csv'): Promise<ApiResponse> {
    const res = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': type } });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }

  async function uploaded(userId: string, jobId: string, body: Uint8Array<ArrayBuffer> = CSV, type = 'text/csv'): Promise<string> {
    const { uploadUrl } = await storage().reserveImport(userId, jobId, t.server.origin);
    const res = await upload(uploadUrl, body, type);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return z.strictObject(StoredFile.shape).parse(res.body).storageId;
  }

  it('reserve, upload, open: the job gets the bytes back', async () => {
    const u = await t.user({ scopes: ['import'] });
    const { uploadUrl } = await storage().reserveImport(u.userId, 'job_a', t.server.origin);
    expect(new URL(uploadUrl).origin).toBe(t.server.origin);
    expect(new URL(uploadUrl).pathname).toMatch(/^\/storage\/uploads\//);

    const res = await upload(uploadUrl, CSV, 'text/csv');
    expect(res.status).toBe(201);
    const { storageId } = z.strictObject(StoredFile.shape).parse(res.body);

    const file = await storage().openImportFile(u.userId, 'job_a', storageId);
    expect(file?.size).toBe(CSV.byteLength);
    expect(new Uint8Array(await buffer((await file!.read())!))).toEqual(CSV);
    // Opening marks nothing: it can be opened and read again.
    const again = await storage().openImportFile(u.userId, 'job_a', storageId);
    expect(new Uint8Array(await buffer((await again!.read())!))).toEqual(CSV);
  });

  it('takes any Content-Type, or none', async () => {
    const u = await t.user();
    const html = new TextEncoder().encode('<!DOCTYPE NETSCAPE-Bookmark-file-1>');
    const id = await uploaded(u.userId, 'job_types', html, 'application/octet-stream');
    expect((await storage().openImportFile(u.userId, 'job_types', id))?.size).toBe(html.byteLength);
  });

  it('opens only for the job and the user it was uploaded for', async () => {
    const [u, other] = [await t.user(), await t.user()];
    const storageId = await uploaded(u.userId, 'job_b');
    expect(await storage().openImportFile(u.userId, 'job_other', storageId)).toBeNull();
    expect(await storage().openImportFile(other.userId, 'job_b', storageId)).toBeNull();
    expect(await storage().openImportFile(u.userId, 'job_b', 'fil_unknown')).toBeNull();
    expect(await storage().openImportFile(u.userId, 'job_b', '../shelf.db')).toBeNull();
  });

  it('is never served publicly', async () => {
    const u = await t.user();
    const storageId = await uploaded(u.userId, 'job_private');
    const res = await fetch(`${t.server.origin}/storage/files/${storageId}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('takes a single upload per URL', async () => {
    const u = await t.user();
    const { uploadUrl } = await storage().reserveImport(u.userId, 'job_once', t.server.origin);
    expect((await upload(uploadUrl, CSV)).status).toBe(201);
    expectError(await upload(uploadUrl, CSV), 400, 'RESERVATION_INVALID');
  });

  it('refuses more than 5 MB with 413, keeps nothing, and leaves the URL usable', async () => {
    const u = await t.user();
    const { uploadUrl } = await storage().reserveImport(u.userId, 'job_big', t.server.origin);
    expectError(await upload(uploadUrl, new Uint8Array(MAX_IMPORT_BYTES + 1)), 413, 'PAYLOAD_TOO_LARGE');
    const exact = await upload(uploadUrl, new Uint8Array(MAX_IMPORT_BYTES).fill(0x61));
    expect(exact.status).toBe(201);
    const { storageId } = StoredFile.parse(exact.body);
    expect((await storage().openImportFile(u.userId, 'job_big', storageId))?.size).toBe(MAX_IMPORT_BYTES);
  });

  it('answers 400 to an empty upload', async () => {
    const u = await t.user();
    const { uploadUrl } = await storage().reserveImport(u.userId, 'job_empty', t.server.origin);
    expectError(await upload(uploadUrl), 400, 'VALIDATION_ERROR');
    expect((await upload(uploadUrl, CSV)).status).toBe(201);
  });

  it('deleteFile and deleteImportFilesOfJob free the record and the bytes', async () => {
    const u = await t.user();
    const one = await uploaded(u.userId, 'job_c');
    expect(await bytesOf(one)).not.toBeNull();
    await storage().deleteFile(one);
    expect(await storage().openImportFile(u.userId, 'job_c', one)).toBeNull();
    expect(await bytesOf(one)).toBeNull();

    const [two, three] = [await uploaded(u.userId, 'job_failed'), await uploaded(u.userId, 'job_failed')];
    const kept = await uploaded(u.userId, 'job_kept');
    await storage().deleteImportFilesOfJob('job_failed');
    expect(await storage().openImportFile(u.userId, 'job_failed', two)).toBeNull();
    expect(await storage().openImportFile(u.userId, 'job_failed', three)).toBeNull();
    expect([await bytesOf(two), await bytesOf(three)]).toEqual([null, null]);
    expect(await storage().openImportFile(u.userId, 'job_kept', kept)).not.toBeNull();
  });

  it('an upload URL expires after 15 minutes; an uploaded file outlives it, until a day passes', async () => {
    const u = await t.user();
    const storageId = await uploaded(u.userId, 'job_slow');
    const { uploadUrl } = await storage().reserveImport(u.userId, 'job_late', t.server.origin);

    await t.advance(16 * 60_000);
    expectError(await upload(uploadUrl, CSV), 400, 'RESERVATION_INVALID');
    expect(await storage().openImportFile(u.userId, 'job_slow', storageId)).not.toBeNull();

    await t.advance(DAY);
    expect(await storage().openImportFile(u.userId, 'job_slow', storageId)).toBeNull();
    expect(await bytesOf(storageId)).toBeNull();
  });

  /**
   * Bytes no record owns, left by a crash: a whole file and a half-written one, both long
   * untouched; and what the sweep must leave alone: a name that is no file id on disk, or on
   * PostgreSQL a file another instance is writing right now. Answers their stored names.
   */
  const plantStrays = async (): Promise<{ stray: string; partial: string; leftAlone: string }> => {
    const { databaseUrl } = t.server.deps.config;
    const stray = `fil_${'ab'.repeat(16)}`;
    const partial = `fil_${'cd'.repeat(16)}`;
    if (databaseUrl === null) {
      const dir = join(t.dataDir, 'files');
      mkdirSync(dir, { recursive: true });
      for (const name of [stray, `${partial}.part`, 'README']) writeFileSync(join(dir, name), 'x');
      return { stray, partial: `${partial}.part`, leftAlone: 'README' };
    }
    const leftAlone = `fil_${'ef'.repeat(16)}`;
    const db = openRawDb({ dataDir: t.dataDir, databaseUrl });
    try {
      const insert = 'INSERT INTO file_bytes (space, id, complete, size, touched_at) VALUES (?, ?, ?, 1, ?)';
      await db.run(insert, 'uploads', stray, 1, 0);
      await db.run(insert, 'uploads', partial, 0, 0);
      await db.run(insert, 'uploads', leftAlone, 0, Date.now());
    } finally {
      await db.close();
    }
    return { stray, partial, leftAlone };
  };

  it('clean-up removes stray bytes that no record owns, and nothing else', async () => {
    const { stray, partial, leftAlone } = await plantStrays();
    const u = await t.user();
    const kept = await uploaded(u.userId, 'job_survivor');
    expect(await storedFileNames(t, 'uploads')).toEqual(expect.arrayContaining([stray, partial, leftAlone]));

    await t.advance(0);
    const names = await storedFileNames(t, 'uploads');
    expect(names).not.toContain(stray);
    expect(names).not.toContain(partial);
    expect(names).toContain(leftAlone);
    expect(await storage().openImportFile(u.userId, 'job_survivor', kept)).not.toBeNull();
  });
});
