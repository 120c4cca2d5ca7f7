import type { Readable } from 'node:stream';

/**
 * The bytes of stored files, each under an id: on disk beside the SQLite database, in
 * PostgreSQL for instances that share no disk. A file is seen whole or not at all: what is
 * being written (or was left half written by a crash) is never opened.
 */
export interface FileBytes {
  /** Starts a new file; it is opened only once committed. Fails when the id is taken. */
  create(id: string): Promise<FileWriter>;
  /** A whole file's size and bytes, read a piece at a time; null when there is none. */
  open(id: string): Promise<{ size: number; stream: Readable } | null>;
  /** Removes these files, whole or being written; one already gone is not an error. */
  remove(ids: Iterable<string>): Promise<void>;
  /**
   * The ids of the files kept, whole or partial, for the sweep of bytes no record owns; not
   * those another instance may be writing right now (what this process writes, it knows).
   */
  list(): Promise<string[]>;
}

/** One new file being written: each write awaited before the next, then committed or aborted. */
export interface FileWriter {
  write(chunk: Uint8Array): Promise<void>;
  /** Makes the whole file visible under its id. */
  commit(): Promise<void>;
  /** Forgets what was written. */
  abort(): Promise<void>;
}
