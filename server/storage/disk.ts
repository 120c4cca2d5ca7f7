import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-modes.ts';
import type { FileBytes, FileWriter } from '../store/files.ts';

/** File ids are 128 random bits: a cover's public URL is guarded only by its id being unguessable. */
const FILE_ID = /^fil_[0-9a-f]{32}$/;
const PARTIAL = '.part';

export const newFileId = (): string => `fil_${randomBytes(16).toString('hex')}`;
export const isFileId = (value: string): boolean => FILE_ID.test(value);

/**
 * Stored files on disk, one per id in a folder of their own (`<dataDir>/files/` for uploads).
 * A file is written as `<id>.part` and renamed once complete, so that a finished name always
 * holds a whole file. Only names that `isId` accepts are used; anything else in the folder is
 * left alone.
 */
export class DiskFileBytes implements FileBytes {
  constructor(
    private readonly dir: string,
    private readonly isId: (name: string) => boolean,
  ) {
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  private pathOf(id: string): string {
    if (!this.isId(id)) throw new Error(`not a file id: ${id}`);
    return join(this.dir, id);
  }

  async create(id: string): Promise<FileWriter> {
    const path = this.pathOf(id);
    const partial = path + PARTIAL;
    // 'wx' refuses a second writer of the id; this, a second file once the first is whole.
    if (await stat(path).then(() => true, () => false)) throw new Error(`file ${id} exists already`);
    const file = await open(partial, 'wx', PRIVATE_FILE_MODE);
    const discard = async () => {
      await file.close().catch(() => undefined);
      await rm(partial, { force: true });
    };
    return {
      write: async (chunk) => {
        await file.write(chunk);
      },
      commit: async () => {
        await file.close();
        await rename(partial, path);
      },
      abort: discard,
    };
  }

  async open(id: string): Promise<{ size: number; stream: Readable } | null> {
    const file = await open(this.pathOf(id)).catch(() => null);
    if (file === null) return null;
    const { size } = await file.stat();
    return { size, stream: file.createReadStream() };
  }

  async remove(ids: Iterable<string>): Promise<void> {
    for (const id of ids) {
      const path = this.pathOf(id);
      await rm(path, { force: true });
      await rm(path + PARTIAL, { force: true });
    }
  }

  async list(): Promise<string[]> {
    const names = await readdir(this.dir);
    const ids = names.map((name) => (name.endsWith(PARTIAL) ? name.slice(0, -PARTIAL.length) : name));
    return [...new Set(ids)].filter((id) => this.isId(id));
  }
}
