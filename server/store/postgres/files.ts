import { Readable } from 'node:stream';
import { HOUR } from '../../clock.ts';
import type { Pg } from '../../db/postgres/pg.ts';
import type { FileBytes, FileWriter } from '../files.ts';

/** The size of a file's rows: what a write or a read holds in memory at most (besides one piece arriving). */
export const CHUNK_BYTES = 256 * 1024;

/**
 * A file nobody has added to for this long is no longer being written by any instance: the
 * sweep may take it. Far beyond an upload URL's 15 minutes, past which its upload is refused anyway.
 */
const WRITER_GONE_AFTER_MS = HOUR;

/** Now in ms on the database's clock, the one all instances share. */
const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** Files removed per statement: each takes its chunks with it. */
const REMOVE_BATCH = 20;

/**
 * Stored files in PostgreSQL: a header row per file and its bytes in rows of CHUNK_BYTES.
 * `space` keeps the files of one use (uploads, export artifacts) apart, each with its own sweep.
 */
export class PgFileBytes implements FileBytes {
  constructor(
    private readonly db: Pg,
    private readonly space: string,
  ) {}

  async create(id: string): Promise<FileWriter> {
    await this.db.run(`INSERT INTO file_bytes (space, id, touched_at) VALUES ($1, $2, ${NOW_MS})`, [this.space, id]);
    return new ChunkWriter(this.db, this.space, id);
  }

  async open(id: string): Promise<{ size: number; stream: Readable } | null> {
    const file = await this.db.get<{ size: number; chunks: number }>(
      'SELECT size, chunks FROM file_bytes WHERE space = $1 AND id = $2 AND complete = 1',
      [this.space, id],
    );
    if (!file) return null;
    return { size: file.size, stream: Readable.from(this.chunksOf(id, file.chunks), { objectMode: false }) };
  }

  /** One row at a time, each read only when the reader wants more. */
  private async *chunksOf(id: string, count: number): AsyncGenerator<Buffer> {
    for (let n = 0; n < count; n++) {
      const row = await this.db.get<{ data: Buffer }>('SELECT data FROM file_chunks WHERE space = $1 AND file_id = $2 AND n = $3', [
        this.space,
        id,
        n,
      ]);
      if (!row) throw new Error(`file ${id} was removed while it was being read`);
      yield row.data;
    }
  }

  async remove(ids: Iterable<string>): Promise<void> {
    const all = [...ids];
    for (let start = 0; start < all.length; start += REMOVE_BATCH) {
      await this.db.run('DELETE FROM file_bytes WHERE space = $1 AND id = ANY($2::text[])', [this.space, all.slice(start, start + REMOVE_BATCH)]);
    }
  }

  async list(): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(`SELECT id FROM file_bytes WHERE space = $1 AND touched_at <= ${NOW_MS} - $2`, [
      this.space,
      WRITER_GONE_AFTER_MS,
    ]);
    return rows.map((r) => r.id);
  }
}

/** Gathers what is written into rows of CHUNK_BYTES; each row is its own statement, no transaction held open meanwhile. */
class ChunkWriter implements FileWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private size = 0;
  private chunks = 0;

  constructor(
    private readonly db: Pg,
    private readonly space: string,
    private readonly id: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.pending.push(Buffer.from(chunk));
    this.pendingBytes += chunk.byteLength;
    this.size += chunk.byteLength;
    while (this.pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(this.pending);
      this.pending = [all.subarray(CHUNK_BYTES)];
      this.pendingBytes = all.byteLength - CHUNK_BYTES;
      await this.insert(all.subarray(0, CHUNK_BYTES));
    }
  }

  async commit(): Promise<void> {
    if (this.pendingBytes > 0) await this.insert(Buffer.concat(this.pending));
    this.pending = [];
    const done = await this.db.run('UPDATE file_bytes SET complete = 1, size = $3, chunks = $4 WHERE space = $1 AND id = $2', [
      this.space,
      this.id,
      this.size,
      this.chunks,
    ]);
    if (done === 0) throw this.removed();
  }

  async abort(): Promise<void> {
    this.pending = [];
    await this.db.run('DELETE FROM file_bytes WHERE space = $1 AND id = $2', [this.space, this.id]);
  }

  /** The next row, and the header touched in the same statement: a header removed meanwhile (swept) stops the write. */
  private async insert(data: Buffer): Promise<void> {
    const inserted = await this.db.run(
      `WITH file AS (UPDATE file_bytes SET touched_at = ${NOW_MS} WHERE space = $1 AND id = $2 RETURNING space, id)
       INSERT INTO file_chunks (space, file_id, n, data) SELECT space, id, $3, $4 FROM file`,
      [this.space, this.id, this.chunks, data],
    );
    if (inserted === 0) throw this.removed();
    this.chunks++;
  }

  private removed(): Error {
    return new Error(`file ${this.id} was removed while it was being written`);
  }
}
