import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type FileHandle, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../http/api-error.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-modes.ts';
import { SNIFF_BYTES } from './sniff.ts';

/** File ids are 128 random bits: a cover's public URL is guarded only by its id being unguessable. */
const FILE_ID = /^fil_[0-9a-f]{32}$/;
const PARTIAL = '.part';

export const newFileId = (): string => `fil_${randomBytes(16).toString('hex')}`;
export const isFileId = (value: string): boolean => FILE_ID.test(value);

export interface DiskEntry {
  id: string;
  path: string;
}

export type Received =
  | { outcome: 'stored'; size: number; head: Uint8Array }
  /** More than the limit arrived: reading stopped and nothing was kept. */
  | { outcome: 'too-large'; size: number; head: Uint8Array }
  | { outcome: 'empty' };

/**
 * The bytes of stored files, one file per id under `<dataDir>/files/`. A file is
 * written as `<id>.part` and renamed once complete, so that a finished name
 * always holds a whole file.
 */
export class FileDisk {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'files');
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  pathOf(id: string): string {
    if (!isFileId(id)) throw new Error(`not a file id: ${id}`);
    return join(this.dir, id);
  }

  /** Streams a request body to the file `id`, counting bytes; stops reading past maxBytes. */
  async receive(id: string, body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Received> {
    if (body === null) return { outcome: 'empty' };
    const partial = this.pathOf(id) + PARTIAL;
    const reader = body.getReader();
    const file = await open(partial, 'wx', PRIVATE_FILE_MODE);
    let size = 0;
    let head: Uint8Array = new Uint8Array(0);
    try {
      for (;;) {
        const chunk = await readChunk(reader);
        if (chunk === null) break;
        size += chunk.byteLength;
        if (head.byteLength < SNIFF_BYTES) head = concat(head, chunk.subarray(0, SNIFF_BYTES - head.byteLength));
        if (size > maxBytes) {
          await reader.cancel().catch(() => undefined);
          await discard(file, partial);
          return { outcome: 'too-large', size, head };
        }
        await file.write(chunk);
      }
    } catch (err) {
      await discard(file, partial);
      throw err;
    }
    await file.close();
    if (size === 0) {
      await rm(partial, { force: true });
      return { outcome: 'empty' };
    }
    await rename(partial, this.pathOf(id));
    return { outcome: 'stored', size, head };
  }

  /** Removes the bytes of these files; a file already gone is not an error. */
  async remove(ids: Iterable<string>): Promise<void> {
    for (const id of ids) await rm(this.pathOf(id), { force: true });
  }

  /** Every file (whole or partial) on disk; anything else in the folder is left alone. */
  async list(): Promise<DiskEntry[]> {
    const names = await readdir(this.dir);
    return names
      .map((name) => ({ id: name.endsWith(PARTIAL) ? name.slice(0, -PARTIAL.length) : name, path: join(this.dir, name) }))
      .filter(({ id }) => isFileId(id));
  }

  async discard(entries: DiskEntry[]): Promise<void> {
    for (const { path } of entries) await rm(path, { force: true });
  }
}

/** The next chunk, or null at the end; a broken connection is the client's problem, answered 400. */
async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array | null> {
  try {
    const { done, value } = await reader.read();
    return done ? null : value;
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'The upload was interrupted before the whole body arrived; send it again');
  }
}

async function discard(file: FileHandle, path: string): Promise<void> {
  await file.close().catch(() => undefined);
  await rm(path, { force: true });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
