import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadSettings } from './http-load.ts';
import { type Library, generateLibrary } from './library.ts';
import { startShelfServer } from './processes.ts';
import { seedLibrary, timeBookmarkRead } from './seed.ts';

export const LIBRARY_SIZE = 10_000;

export interface BenchSettings {
  load: LoadSettings;
  /**
   * The HTTP section's list beside its baselines: more and shorter rounds than `load`,
   * because each round gives one ratio, and on a shared machine the median of many
   * ratios says more than a few long runs.
   */
  listLoad: LoadSettings;
  /** Timed single requests per smart-folder evaluation. */
  evaluations: number;
  /** Runs per export format (the median is reported). */
  exportRuns: number;
}

export const SETTINGS: Record<'full' | 'quick', BenchSettings> = {
  full: {
    load: { connections: 10, warmupSeconds: 2, durationSeconds: 5, rounds: 3 },
    listLoad: { connections: 10, warmupSeconds: 1, durationSeconds: 3, rounds: 9 },
    evaluations: 50,
    exportRuns: 3,
  },
  quick: {
    load: { connections: 10, warmupSeconds: 1, durationSeconds: 3, rounds: 1 },
    listLoad: { connections: 10, warmupSeconds: 1, durationSeconds: 2, rounds: 3 },
    evaluations: 20,
    exportRuns: 1,
  },
};

/**
 * The bench's temporary data: a template data directory seeded once with the
 * library, which each section copies so that no section sees another's writes.
 */
export interface Workspace {
  library: Library;
  /** The all-scopes token of the template's user (valid in every copy). */
  token: string;
  /** How long SQLite took to insert the library in one transaction. */
  insertMs: number;
  /** Times a SELECT of BOOKMARK_COLUMNS (named parameter @userId is the template's user) on the seeded data. */
  rawRead(sql: string, params?: Record<string, unknown>): { ms: number; rows: number };
  /** A copy of the seeded template, for one section's server. */
  seededDir(name: string): string;
  /** An empty data directory (the server's first start makes its user and token). */
  emptyDir(name: string): string;
  /** A path for a scratch file. */
  file(name: string): string;
  remove(): void;
}

export async function prepareWorkspace(): Promise<Workspace> {
  const root = mkdtempSync(join(tmpdir(), 'shelf-bench-'));
  try {
    const template = join(root, 'template');
    // A first start and stop creates the schema, the user and its token; the seed then writes straight into the database.
    const server = await startShelfServer(template);
    await server.stop();
    if (server.firstToken === null) throw new Error('the first start of the server printed no token');
    const library = generateLibrary(LIBRARY_SIZE, Date.now());
    const { userId, insertMs } = seedLibrary(template, library);
    return {
      library,
      token: server.firstToken,
      insertMs,
      rawRead: (sql, params = {}) => timeBookmarkRead(template, sql, { ...params, userId }),
      seededDir(name) {
        const dir = join(root, name);
        cpSync(template, dir, { recursive: true });
        return dir;
      },
      emptyDir(name) {
        const dir = join(root, name);
        mkdirSync(dir);
        return dir;
      },
      file: (name) => join(root, name),
      remove: () => rmSync(root, { recursive: true, force: true }),
    };
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
}
