import { readFileSync } from 'node:fs';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.ts';

export type { ServerProcess };

export interface ShelfServer extends ServerProcess {
  /** The all-scopes token a first start prints; null on a later start. */
  firstToken: string | null;
}

/** The Shelf server on a free port with the bench-only raised limits, on SQLite in `dataDir`. */
export const startShelfServer = (dataDir: string): Promise<ShelfServer> => startShelfServerOn(['--data', dataDir]);

/** The same on the store the arguments name (`--data <dir>` or `--database <url>`). */
export async function startShelfServerOn(storeArgs: readonly string[]): Promise<ShelfServer> {
  const server = await startServerProcess('server/main.ts', ['--port', '0', ...storeArgs, '--raise-limits']);
  const firstToken = server.banner.join('\n').match(/tok_[0-9a-f]{64}/)?.[0] ?? null;
  return { ...server, firstToken };
}

/** A baseline server (bench/http-baseline-server.ts) answering every GET with the bytes of `answerFile`. */
export const startBaselineServer = (kind: 'bare' | 'hono', answerFile: string): Promise<ServerProcess> =>
  startServerProcess('bench/http-baseline-server.ts', [kind, answerFile]);

/** The most memory the process has held at once since it started (the kernel's VmHWM), in bytes; null once it is gone. */
export function peakRssOf(pid: number): number | null {
  try {
    const kb = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}
