import { describe, expect, it } from 'vitest';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { PgAccounts } from '../../../server/store/postgres/accounts.ts';
import { PgUploads } from '../../../server/store/postgres/uploads.ts';
import type { NewFile, SaveCoverInput } from '../../../server/store/uploads.ts';
import { freshDatabases } from './fresh-database.ts';

const { fresh } = freshDatabases();
const TTL = 15 * 60_000;
const QUOTA = 1000;

/** A database with a user, and rows the uploads store reads but other stores write (bookmarks, jobs) put in directly. */
async function setup(pools = 1) {
  const dbs = await fresh(pools);
  const db = dbs[0]!;
  const accounts = new PgAccounts(db);
  const newUser = async () => (await accounts.createUser({ name: 'Ann', email: 'ann@example.com', plan: 'pro' }, 0)).id;
  const userId = await newUser();
  let n = 0;
  const bookmark = async (owner = userId, deletedAt: number | null = null) => {
    const id = `bkm_${++n}`;
    await db.run(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, domain, metadata_status, link_status, last_checked_at, created_at, updated_at, deleted_at)
       VALUES ($1, $2, $3, $3, 't', 'example.com', 'ok', 'ok', 0, 0, 0, $4)`,
      [id, owner, `https://example.com/${n}`, deletedAt],
    );
    return id;
  };
  const job = async (status = 'pending', owner = userId) => {
    const id = `job_${++n}`;
    await db.run(`INSERT INTO jobs (id, user_id, type, status, created_at) VALUES ($1, $2, 'import', $3, 0)`, [id, owner, status]);
    return id;
  };
  const uploads = dbs.map((d) => new PgUploads(d));
  return { db, dbs, uploads: uploads[0]!, instances: uploads, userId, newUser, bookmark, job };
}

const file = (id: string, size: number, more: Partial<NewFile> = {}): NewFile => ({
  id,
  size,
  declaredType: 'image/png',
  detectedType: 'image/png',
  oversize: false,
  ...more,
});

type Setup = Awaited<ReturnType<typeof setup>>;

/** A cover reservation with its upload claimed and recorded: what a save then names. */
async function uploadedCover(s: Setup, bookmarkId: string, fileId: string, size: number, more: Partial<NewFile> = {}, now = 0) {
  const r = (await s.uploads.reserveCover({ tokenHash: `h-${fileId}`, userId: s.userId, bookmarkId, maxBytes: 500, expiresAt: now + TTL }, 10, now))!;
  await s.uploads.claimUpload(`h-${fileId}`, fileId, now);
  expect(await s.uploads.recordFile(r.id, s.userId, file(fileId, size, more), QUOTA, now)).toBe(true);
  return r;
}

const saveInput = (s: Setup, bookmarkId: string, reservationId: string, storageId: string): SaveCoverInput => ({
  userId: s.userId,
  bookmarkId,
  reservationId,
  storageId,
  maxBytes: 500,
  quotaBytes: QUOTA,
  url: `https://shelf.example/storage/files/${storageId}`,
});

async function importUpload(s: Setup, jobId: string, fileId: string, size: number, now = 0) {
  const r = await s.uploads.reserveImport({ tokenHash: `h-${fileId}`, userId: s.userId, jobId, maxBytes: 5000, expiresAt: now + TTL }, 10, now);
  await s.uploads.claimUpload(`h-${fileId}`, fileId, now);
  return { reservation: r, recorded: await s.uploads.recordFile(r.id, s.userId, file(fileId, size, { detectedType: null }), QUOTA, now) };
}

const cover = async (db: Pg, bookmarkId: string) =>
  db.get<{ cover_file_id: string | null; cover_image: string | null }>('SELECT cover_file_id, cover_image FROM bookmarks WHERE id = $1', [bookmarkId]);

describe('PgUploads reservations', () => {
  it('reserves a cover for an active bookmark of the user only', async () => {
    const s = await setup();
    const [active, trashed, foreign] = [await s.bookmark(), await s.bookmark(s.userId, 5), await s.bookmark(await s.newUser())];
    const input = { tokenHash: 'h', userId: s.userId, maxBytes: 500, expiresAt: TTL };
    for (const bookmarkId of [trashed, foreign, 'bkm_missing']) expect(await s.uploads.reserveCover({ ...input, bookmarkId }, 3, 0)).toBeNull();
    const r = await s.uploads.reserveCover({ ...input, bookmarkId: active }, 3, 0);
    expect(r).toEqual({
      id: r!.id,
      userId: s.userId,
      kind: 'cover',
      bookmarkId: active,
      jobId: null,
      maxBytes: 500,
      createdAt: 0,
      expiresAt: TTL,
      fileId: null,
      usedAt: null,
    });
  });

  it('refuses a cover reservation past the pending cap, with when the first one expires; expired and used ones do not count', async () => {
    const s = await setup();
    const b = await s.bookmark();
    const reserve = (hash: string, now: number) => s.uploads.reserveCover({ tokenHash: hash, userId: s.userId, bookmarkId: b, maxBytes: 500, expiresAt: now + TTL }, 2, now);
    await reserve('a', 0);
    const used = await uploadedCover(s, b, 'fil_used', 10, {}, 1000);
    await s.uploads.saveCover(saveInput(s, b, used.id, 'fil_used'), 1000);
    await reserve('b', 2000);
    await expect(reserve('c', 3000)).rejects.toMatchObject({
      code: 'TOO_MANY_PENDING_UPLOADS',
      message: '2 cover uploads are already outstanding (at most 2); save or abandon one, or wait until one expires',
      headers: { 'Retry-After': String((TTL - 3000) / 1000) },
    });
    // Once the first expires there is room again.
    expect(await reserve('c', TTL)).not.toBeNull();
  });

  it('counts import reservations of jobs not started, with an upload URL still valid or a file uploaded', async () => {
    const s = await setup();
    const reserve = async (jobId: string, hash: string, now: number) =>
      s.uploads.reserveImport({ tokenHash: hash, userId: s.userId, jobId, maxBytes: 5000, expiresAt: now + TTL }, 2, now);
    await importUpload(s, await s.job(), 'fil_waiting', 10);
    await reserve(await s.job('running'), 'started', 0);
    await reserve(await s.job(), 'url', 1000);
    await expect(reserve(await s.job(), 'x', 2000)).rejects.toMatchObject({
      code: 'TOO_MANY_PENDING_UPLOADS',
      headers: { 'Retry-After': String((TTL + 1000 - 2000) / 1000) },
    });
    // The URL expires; the uploaded file still waits for its start, and has no expiry to wait for.
    await reserve(await s.job(), 'y', TTL + 1000);
    const refused = reserve(await s.job(), 'z', TTL + 1000);
    await expect(refused).rejects.toMatchObject({ code: 'TOO_MANY_PENDING_UPLOADS', headers: { 'Retry-After': String(TTL / 1000) } });
    await s.db.run(`UPDATE jobs SET status = 'running'`);
    await s.db.run(`DELETE FROM upload_reservations WHERE token_hash = 'y'`);
    const noExpiry = await s.uploads
      .reserveImport({ tokenHash: 'w', userId: s.userId, jobId: await s.job(), maxBytes: 5000, expiresAt: TTL }, 0, 0)
      .catch((err: { headers: object }) => err.headers);
    expect(noExpiry).toEqual({});
  });

  it('holds the pending cap when two instances reserve at once', async () => {
    const s = await setup(2);
    const b = await s.bookmark();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        s.instances[i % 2]!.reserveCover({ tokenHash: `h${i}`, userId: s.userId, bookmarkId: b, maxBytes: 500, expiresAt: TTL }, 3, 0),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(5);
  });
});

describe('PgUploads claims and records', () => {
  it('takes an upload URL once; says why it cannot (unknown, used, expired); a released claim can be taken again', async () => {
    const s = await setup();
    const b = await s.bookmark();
    const r = (await s.uploads.reserveCover({ tokenHash: 'h', userId: s.userId, bookmarkId: b, maxBytes: 500, expiresAt: TTL }, 3, 0))!;
    const invalid = (message: string) => ({ code: 'RESERVATION_INVALID', message });
    await expect(s.uploads.claimUpload('nope', 'fil_1', 0)).rejects.toMatchObject(invalid('This upload URL is not valid; ask for a new one'));
    await expect(s.uploads.claimUpload('h', 'fil_1', TTL)).rejects.toMatchObject(
      invalid('This upload URL expired (they are valid for 15 minutes); ask for a new one'),
    );
    expect(await s.uploads.claimUpload('h', 'fil_1', 0)).toEqual({ ...r, fileId: 'fil_1' });
    await expect(s.uploads.claimUpload('h', 'fil_2', 0)).rejects.toMatchObject(
      invalid('This upload URL was already used; each one takes a single upload, so ask for a new one'),
    );
    await s.uploads.releaseUpload(r.id, 'fil_other');
    await expect(s.uploads.claimUpload('h', 'fil_2', 0)).rejects.toMatchObject({ code: 'RESERVATION_INVALID' });
    await s.uploads.releaseUpload(r.id, 'fil_1');
    expect((await s.uploads.claimUpload('h', 'fil_2', 0)).fileId).toBe('fil_2');
  });

  it('of claims of one upload URL at once from two instances, exactly one wins', async () => {
    const s = await setup(2);
    const b = await s.bookmark();
    for (let round = 0; round < 5; round++) {
      await s.uploads.reserveCover({ tokenHash: `h${round}`, userId: s.userId, bookmarkId: b, maxBytes: 500, expiresAt: TTL }, 10, 0);
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => s.instances[i % 2]!.claimUpload(`h${round}`, `fil_${round}_${i}`, 0)));
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const row = await s.db.get<{ file_id: string }>('SELECT file_id FROM upload_reservations WHERE token_hash = $1', [`h${round}`]);
      expect(row!.file_id).toBe((won[0] as PromiseFulfilledResult<{ fileId: string }>).value.fileId);
    }
  });

  it('records only the file its reservation took, and refuses an import file past the quota without recording it', async () => {
    const s = await setup();
    const b = await s.bookmark();
    const r = (await s.uploads.reserveCover({ tokenHash: 'h', userId: s.userId, bookmarkId: b, maxBytes: 500, expiresAt: TTL }, 3, 0))!;
    await s.uploads.claimUpload('h', 'fil_1', 0);
    expect(await s.uploads.recordFile(r.id, s.userId, file('fil_other', 10), QUOTA, 0)).toBe(false);
    expect(await s.uploads.recordFile('rsv_missing', s.userId, file('fil_1', 10), QUOTA, 0)).toBe(false);
    // A cover is checked against the quota when it is saved, not when it arrives.
    expect(await s.uploads.recordFile(r.id, s.userId, file('fil_1', QUOTA + 1), QUOTA, 0)).toBe(true);

    expect((await importUpload(s, 'job_a', 'fil_a', 600)).recorded).toBe(true);
    await expect(importUpload(s, 'job_b', 'fil_b', 401)).rejects.toMatchObject({
      code: 'STORAGE_LIMIT_REACHED',
      message: 'This import file would bring your storage to 0 MB, above the 0 MB quota; start your pending imports or delete covers first',
    });
    expect(await s.uploads.knownFiles(['fil_1', 'fil_a', 'fil_b'])).toEqual(new Set(['fil_1', 'fil_a']));
    expect((await importUpload(s, 'job_c', 'fil_c', 400)).recorded).toBe(true);
  });

  it('holds the quota when two instances record import files at once', async () => {
    const s = await setup(2);
    const claims = [];
    for (let i = 0; i < 4; i++) {
      const r = await s.uploads.reserveImport({ tokenHash: `h${i}`, userId: s.userId, jobId: `job_${i}`, maxBytes: 5000, expiresAt: TTL }, 10, 0);
      await s.uploads.claimUpload(`h${i}`, `fil_${i}`, 0);
      claims.push(r);
    }
    const results = await Promise.allSettled(
      claims.map((r, i) => s.instances[i % 2]!.recordFile(r.id, s.userId, file(`fil_${i}`, 300, { detectedType: null }), QUOTA, 0)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.code).toBe('STORAGE_LIMIT_REACHED');
  });
});

describe('PgUploads covers', () => {
  it('saves an uploaded image as the cover, serves it, counts it, and frees the cover it replaces', async () => {
    const s = await setup();
    const b = await s.bookmark();
    const first = await uploadedCover(s, b, 'fil_first', 100);
    expect(await s.uploads.servedCover('fil_first')).toBeNull();
    expect(await s.uploads.saveCover(saveInput(s, b, first.id, 'fil_first'), 10)).toEqual({ freedFileId: null });
    expect(await cover(s.db, b)).toEqual({ cover_file_id: 'fil_first', cover_image: 'https://shelf.example/storage/files/fil_first' });
    expect(await s.uploads.servedCover('fil_first')).toEqual({ type: 'image/png', size: 100 });
    expect(await s.uploads.coverBytes(s.userId)).toBe(100);

    const second = await uploadedCover(s, b, 'fil_second', 200);
    expect(await s.uploads.saveCover(saveInput(s, b, second.id, 'fil_second'), 20)).toEqual({ freedFileId: 'fil_first' });
    expect(await s.uploads.coverBytes(s.userId)).toBe(200);
    expect(await s.uploads.knownFiles(['fil_first', 'fil_second'])).toEqual(new Set(['fil_second']));
    await expect(s.uploads.saveCover(saveInput(s, b, second.id, 'fil_second'), 30)).rejects.toMatchObject({
      code: 'RESERVATION_INVALID',
      message: `Reservation ${second.id} was already used; each reservation saves one cover`,
    });
  });

  it('refuses a save, changing nothing, for each reason it may not happen', async () => {
    const s = await setup();
    const [b, other] = [await s.bookmark(), await s.bookmark()];
    const ok = await uploadedCover(s, b, 'fil_ok', 100);
    const refused = async (input: SaveCoverInput, code: string, message: string, now = 0) => {
      await expect(s.uploads.saveCover(input, now)).rejects.toMatchObject({ code, message });
    };
    await refused(saveInput(s, 'bkm_missing', ok.id, 'fil_ok'), 'NOT_FOUND', expect.stringContaining('bkm_missing') as unknown as string);
    await refused(saveInput(s, b, 'rsv_missing', 'fil_ok'), 'RESERVATION_INVALID', 'There is no cover-upload reservation rsv_missing; ask for an upload URL first');
    await refused(saveInput(s, b, ok.id, 'fil_ok'), 'RESERVATION_INVALID', `Reservation ${ok.id} expired (they are valid for 15 minutes); ask for a new upload URL`, TTL);
    await refused(saveInput(s, other, ok.id, 'fil_ok'), 'RESERVATION_INVALID', `Reservation ${ok.id} was made for another bookmark; ask for an upload URL for this one`);
    await refused(saveInput(s, b, ok.id, 'fil_else'), 'RESERVATION_INVALID', `storageId fil_else is not the file uploaded through reservation ${ok.id}`);

    const empty = (await s.uploads.reserveCover({ tokenHash: 'e', userId: s.userId, bookmarkId: b, maxBytes: 500, expiresAt: TTL }, 10, 0))!;
    await refused(
      saveInput(s, b, empty.id, 'fil_x'),
      'RESERVATION_INVALID',
      `Nothing has been uploaded through reservation ${empty.id} yet; upload the image to its uploadUrl first`,
    );
    const big = await uploadedCover(s, b, 'fil_big', 501);
    await refused(saveInput(s, b, big.id, 'fil_big'), 'FILE_TOO_LARGE', 'The cover is larger than 0 MB, the most a cover may be');
    const marker = await uploadedCover(s, b, 'fil_marker', 10, { oversize: true });
    await refused(saveInput(s, b, marker.id, 'fil_marker'), 'FILE_TOO_LARGE', 'The cover is larger than 0 MB, the most a cover may be');
    const text = await uploadedCover(s, b, 'fil_text', 10, { detectedType: null });
    await refused(saveInput(s, b, text.id, 'fil_text'), 'INVALID_FILE_TYPE', 'The file is not a JPEG, PNG, GIF or WebP image');
    const liar = await uploadedCover(s, b, 'fil_liar', 10, { declaredType: 'image/gif' });
    await refused(
      saveInput(s, b, liar.id, 'fil_liar'),
      'INVALID_FILE_TYPE',
      'The file is a PNG image but was uploaded as image/gif; send it with Content-Type image/png',
    );

    const foreignUser = await s.newUser();
    await refused({ ...saveInput(s, b, ok.id, 'fil_ok'), userId: foreignUser }, 'NOT_FOUND', expect.stringContaining(b) as unknown as string);
    expect(await cover(s.db, b)).toEqual({ cover_file_id: null, cover_image: null });
    expect(await s.uploads.coverBytes(s.userId)).toBe(0);
  });

  it('refuses a cover past the quota, counting import files and not the cover it replaces', async () => {
    const s = await setup();
    const [one, two] = [await s.bookmark(), await s.bookmark()];
    const a = await uploadedCover(s, one, 'fil_a', 400);
    await s.uploads.saveCover(saveInput(s, one, a.id, 'fil_a'), 0);
    await importUpload(s, 'job_x', 'fil_import', 300);
    const b = await uploadedCover(s, two, 'fil_b', 301);
    await expect(s.uploads.saveCover(saveInput(s, two, b.id, 'fil_b'), 0)).rejects.toMatchObject({
      code: 'STORAGE_LIMIT_REACHED',
      message: 'This cover would bring your storage to 0 MB, above the 0 MB quota; delete other covers first',
    });
    // Replacing the 400-byte cover with 301 bytes fits: 301 + 300.
    const c = await uploadedCover(s, one, 'fil_c', 301);
    expect(await s.uploads.saveCover(saveInput(s, one, c.id, 'fil_c'), 0)).toEqual({ freedFileId: 'fil_a' });
  });

  it('deletes a cover: the freed file, null when there was none, NOT_FOUND for no such active bookmark', async () => {
    const s = await setup();
    const b = await s.bookmark();
    const r = await uploadedCover(s, b, 'fil_a', 100);
    await s.uploads.saveCover(saveInput(s, b, r.id, 'fil_a'), 0);
    expect(await s.uploads.deleteCover(s.userId, b, 5)).toEqual({ freedFileId: 'fil_a' });
    expect(await cover(s.db, b)).toEqual({ cover_file_id: null, cover_image: null });
    expect(await s.uploads.servedCover('fil_a')).toBeNull();
    expect(await s.uploads.deleteCover(s.userId, b, 6)).toEqual({ freedFileId: null });
    await expect(s.uploads.deleteCover(s.userId, 'bkm_missing', 6)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.uploads.deleteCover(await s.newUser(), b, 6)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('PgUploads files and sweeps', () => {
  it('finds an import file for its job and user only, never an oversize one', async () => {
    const s = await setup();
    await importUpload(s, 'job_a', 'fil_a', 10);
    expect(await s.uploads.importFile(s.userId, 'job_a', 'fil_a')).toEqual({ size: 10 });
    expect(await s.uploads.importFile(s.userId, 'job_b', 'fil_a')).toBeNull();
    expect(await s.uploads.importFile(await s.newUser(), 'job_a', 'fil_a')).toBeNull();
    const r = await s.uploads.reserveImport({ tokenHash: 'big', userId: s.userId, jobId: 'job_big', maxBytes: 5, expiresAt: TTL }, 10, 0);
    await s.uploads.claimUpload('big', 'fil_big', 0);
    await s.uploads.recordFile(r.id, s.userId, file('fil_big', 6, { oversize: true }), QUOTA, 0);
    expect(await s.uploads.importFile(s.userId, 'job_big', 'fil_big')).toBeNull();
  });

  it('deletes one file (a cover it was is cleared) or every file of an import job', async () => {
    const s = await setup();
    const b = await s.bookmark();
    const r = await uploadedCover(s, b, 'fil_cover', 100);
    await s.uploads.saveCover(saveInput(s, b, r.id, 'fil_cover'), 0);
    expect(await s.uploads.deleteFile('fil_cover')).toBe(true);
    expect(await s.uploads.deleteFile('fil_cover')).toBe(false);
    expect(await cover(s.db, b)).toEqual({ cover_file_id: null, cover_image: null });

    await importUpload(s, 'job_a', 'fil_a1', 10);
    await importUpload(s, 'job_a', 'fil_a2', 10);
    await s.uploads.reserveImport({ tokenHash: 'unused', userId: s.userId, jobId: 'job_a', maxBytes: 5000, expiresAt: TTL }, 10, 0);
    await importUpload(s, 'job_b', 'fil_b', 10);
    expect((await s.uploads.deleteImportFilesOfJob('job_a')).sort()).toEqual(['fil_a1', 'fil_a2']);
    expect(await s.db.get('SELECT COUNT(*) AS n FROM upload_reservations WHERE job_id = $1', ['job_a'])).toEqual({ n: 0 });
    expect(await s.uploads.deleteImportFilesOfJob('job_a')).toEqual([]);
    expect(await s.uploads.knownFiles(['fil_a1', 'fil_b'])).toEqual(new Set(['fil_b']));
  });

  it('sweeps expired reservations with their unsaved covers, keeping saved covers and uploaded import files', async () => {
    const s = await setup();
    const b = await s.bookmark();
    const saved = await uploadedCover(s, b, 'fil_saved', 10);
    await s.uploads.saveCover(saveInput(s, b, saved.id, 'fil_saved'), 0);
    await uploadedCover(s, b, 'fil_unsaved', 10);
    await s.uploads.reserveCover({ tokenHash: 'never', userId: s.userId, bookmarkId: b, maxBytes: 500, expiresAt: TTL }, 10, 0);
    await importUpload(s, 'job_a', 'fil_import', 10);
    await s.uploads.reserveImport({ tokenHash: 'unused', userId: s.userId, jobId: 'job_b', maxBytes: 5000, expiresAt: TTL }, 10, 0);
    const later = await uploadedCover(s, b, 'fil_later', 10, {}, TTL);

    expect(await s.uploads.sweepExpired(TTL)).toEqual(['fil_unsaved']);
    const left = await s.db.all<{ id: string }>('SELECT id FROM upload_reservations ORDER BY id');
    expect(left.map((r) => r.id)).toHaveLength(2);
    expect(await s.uploads.importFile(s.userId, 'job_a', 'fil_import')).toEqual({ size: 10 });
    expect(left.map((r) => r.id)).toContain(later.id);
    expect(await s.uploads.knownFiles(['fil_saved', 'fil_unsaved', 'fil_import', 'fil_later'])).toEqual(new Set(['fil_saved', 'fil_import', 'fil_later']));
    expect(await s.uploads.sweepExpired(TTL)).toEqual([]);
  });

  it('sweeps covers of bookmarks deleted for good, and import files older than the cutoff', async () => {
    const s = await setup();
    const [gone, kept] = [await s.bookmark(), await s.bookmark()];
    for (const [bookmarkId, id] of [[gone, 'fil_gone'], [kept, 'fil_kept']] as const) {
      const r = await uploadedCover(s, bookmarkId, id, 10);
      await s.uploads.saveCover(saveInput(s, bookmarkId, r.id, id), 0);
    }
    await s.db.run('DELETE FROM bookmarks WHERE id = $1', [gone]);
    expect(await s.uploads.sweepOrphanCovers()).toEqual(['fil_gone']);
    expect(await s.uploads.sweepOrphanCovers()).toEqual([]);

    await importUpload(s, 'job_old', 'fil_old', 10, 100);
    await importUpload(s, 'job_new', 'fil_new', 10, 200);
    expect(await s.uploads.sweepImportFiles(100)).toEqual(['fil_old']);
    expect(await s.uploads.knownFiles(['fil_kept', 'fil_gone', 'fil_old', 'fil_new', 'fil_never'])).toEqual(new Set(['fil_kept', 'fil_new']));
    expect(await s.uploads.knownFiles([])).toEqual(new Set());
  });
});
