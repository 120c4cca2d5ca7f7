import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { DiskFileBytes, isFileId, newFileId } from '../../../server/storage/disk.ts';
import { receive } from '../../../server/storage/receive.ts';
import { SNIFF_BYTES } from '../../../server/storage/sniff.ts';
import type { FileBytes } from '../../../server/store/files.ts';
import { CHUNK_BYTES, PgFileBytes } from '../../../server/store/postgres/files.ts';
import { freshDatabases } from './fresh-database.ts';

const { fresh } = freshDatabases();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Bytes that differ from offset to offset, so that a chunk out of place shows. */
function pattern(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 10)) % 251;
  return bytes;
}

/** A request body arriving in pieces of `piece` bytes. */
const body = (bytes: Uint8Array, piece = 64 * 1024): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.byteLength; at += piece) controller.enqueue(bytes.slice(at, at + piece));
      controller.close();
    },
  });

const readAll = async (files: FileBytes, id: string): Promise<Uint8Array | null> => {
  const file = await files.open(id);
  return file && new Uint8Array(await buffer(file.stream));
};

const backends: Array<[string, () => Promise<FileBytes>]> = [
  [
    'on disk',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'shelf-files-'));
      dirs.push(dir);
      return new DiskFileBytes(join(dir, 'files'), isFileId);
    },
  ],
  ['in PostgreSQL', async () => new PgFileBytes((await fresh())[0]!, 'uploads')],
];

describe.each(backends)('stored bytes %s', (_, open) => {
  it('receives a body and reads it back, with the head for sniffing', async () => {
    const files = await open();
    const id = newFileId();
    const bytes = pattern(5000);
    expect(await receive(files, id, body(bytes, 1000), 10_000)).toEqual({ outcome: 'stored', size: 5000, head: bytes.slice(0, SNIFF_BYTES) });
    expect(await readAll(files, id)).toEqual(bytes);
    const file = (await files.open(id))!;
    expect(file.size).toBe(5000);
    file.stream.destroy();
  });

  it('keeps nothing of a body past the limit, nor of an empty one', async () => {
    const files = await open();
    const [big, empty, none] = [newFileId(), newFileId(), newFileId()];
    const received = await receive(files, big, body(pattern(3000), 1000), 2500);
    expect(received).toMatchObject({ outcome: 'too-large', size: 3000 });
    expect(await receive(files, empty, body(new Uint8Array(0)), 2500)).toEqual({ outcome: 'empty' });
    expect(await receive(files, none, null, 2500)).toEqual({ outcome: 'empty' });
    for (const id of [big, empty, none]) expect(await files.open(id)).toBeNull();
    expect(await files.list()).toEqual([]);
  });

  it('takes exactly the limit', async () => {
    const files = await open();
    const id = newFileId();
    expect(await receive(files, id, body(pattern(2500), 1000), 2500)).toMatchObject({ outcome: 'stored', size: 2500 });
  });

  it('shows a file only once committed; an aborted one leaves nothing', async () => {
    const files = await open();
    const [id, aborted] = [newFileId(), newFileId()];
    const writer = await files.create(id);
    await writer.write(pattern(10));
    expect(await files.open(id)).toBeNull();
    await writer.commit();
    expect(await readAll(files, id)).toEqual(pattern(10));

    const other = await files.create(aborted);
    await other.write(pattern(10));
    await other.abort();
    expect(await files.open(aborted)).toBeNull();
  });

  it('refuses a second file under a taken id, and keeps the first', async () => {
    const files = await open();
    const id = newFileId();
    await receive(files, id, body(pattern(100)), 1000);
    await expect(files.create(id)).rejects.toThrow();
    expect(await readAll(files, id)).toEqual(pattern(100));
  });

  it('a failing body leaves nothing behind', async () => {
    const files = await open();
    const id = newFileId();
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    await expect(receive(files, id, broken, 1000)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await files.open(id)).toBeNull();
  });

  it('removes files, whole or being written, and ignores ids already gone', async () => {
    const files = await open();
    const [whole, partial, gone] = [newFileId(), newFileId(), newFileId()];
    await receive(files, whole, body(pattern(100)), 1000);
    const writer = await files.create(partial);
    await writer.write(pattern(10));
    await files.remove([whole, partial, gone]);
    expect(await files.open(whole)).toBeNull();
    await expect(writer.commit()).rejects.toThrow();
    expect(await files.open(partial)).toBeNull();
  });
});

describe('stored bytes on disk', () => {
  it('lists whole and partial files by id, leaving other names alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-files-'));
    dirs.push(dir);
    const files = new DiskFileBytes(dir, isFileId);
    const [whole, partial] = [newFileId(), newFileId()];
    await receive(files, whole, body(pattern(10)), 100);
    const writer = await files.create(partial);
    await writer.write(pattern(10));
    writeFileSync(join(dir, 'README'), 'x');
    expect((await files.list()).sort()).toEqual([whole, partial].sort());
    await files.remove(await files.list());
    expect(readdirSync(dir)).toEqual(['README']);
    await writer.abort();
  });
});

describe('stored bytes in PostgreSQL', () => {
  const chunkRows = (db: Pg, id: string) =>
    db.all<{ n: number; size: number }>('SELECT n, length(data) AS size FROM file_chunks WHERE file_id = $1 ORDER BY n', [id]);

  it('writes a file larger than one row in rows of CHUNK_BYTES, and reads it back a row at a time', async () => {
    const db = (await fresh())[0]!;
    const files = new PgFileBytes(db, 'uploads');
    const id = newFileId();
    const size = 2 * CHUNK_BYTES + 12_345;
    const bytes = pattern(size);
    // Pieces that do not divide a row evenly.
    expect(await receive(files, id, body(bytes, 100_000), size)).toMatchObject({ outcome: 'stored', size });
    expect(await chunkRows(db, id)).toEqual([
      { n: 0, size: CHUNK_BYTES },
      { n: 1, size: CHUNK_BYTES },
      { n: 2, size: 12_345 },
    ]);

    const file = (await files.open(id))!;
    expect(file.size).toBe(size);
    const pieces: number[] = [];
    const read: Buffer[] = [];
    for await (const piece of file.stream) {
      pieces.push((piece as Buffer).byteLength);
      read.push(piece as Buffer);
    }
    expect(Math.max(...pieces)).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(Buffer.concat(read).equals(bytes)).toBe(true);
  });

  it('a file exactly one row long is one row', async () => {
    const db = (await fresh())[0]!;
    const files = new PgFileBytes(db, 'uploads');
    const id = newFileId();
    await receive(files, id, body(pattern(CHUNK_BYTES)), CHUNK_BYTES);
    expect(await chunkRows(db, id)).toEqual([{ n: 0, size: CHUNK_BYTES }]);
  });

  it('keeps no row of a body past the limit, even one written before the limit was passed', async () => {
    const db = (await fresh())[0]!;
    const files = new PgFileBytes(db, 'uploads');
    const id = newFileId();
    expect(await receive(files, id, body(pattern(3 * CHUNK_BYTES)), 2 * CHUNK_BYTES + 1)).toMatchObject({ outcome: 'too-large' });
    expect(await db.all('SELECT * FROM file_chunks')).toEqual([]);
    expect(await db.all('SELECT * FROM file_bytes')).toEqual([]);
  });

  it('lists for the sweep only files no writer has added to for an hour; spaces are apart', async () => {
    const db = (await fresh())[0]!;
    const [uploads, exports] = [new PgFileBytes(db, 'uploads'), new PgFileBytes(db, 'exports')];
    const [old, recent, stale, other] = [newFileId(), newFileId(), newFileId(), newFileId()];
    await receive(uploads, old, body(pattern(10)), 100);
    await receive(uploads, recent, body(pattern(10)), 100);
    await (await uploads.create(stale)).write(pattern(10));
    await receive(exports, other, body(pattern(10)), 100);
    expect(await uploads.list()).toEqual([]);

    await db.run(`UPDATE file_bytes SET touched_at = touched_at - 3600 * 1000 WHERE id = ANY($1::text[])`, [[old, stale, other]]);
    expect((await uploads.list()).sort()).toEqual([old, stale].sort());
    expect(await exports.list()).toEqual([other]);
    expect(await uploads.open(other)).toBeNull();
    await uploads.remove([other]);
    expect(await readAll(exports, other)).toEqual(pattern(10));
  });

  it('a file removed while it is read ends its stream with an error', async () => {
    const db = (await fresh())[0]!;
    const files = new PgFileBytes(db, 'uploads');
    const id = newFileId();
    await receive(files, id, body(pattern(3 * CHUNK_BYTES)), 3 * CHUNK_BYTES);
    const file = (await files.open(id))!;
    await files.remove([id]);
    await expect(buffer(file.stream)).rejects.toThrow(`file ${id} was removed while it was being read`);
  });
});
