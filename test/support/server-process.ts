import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { linkCheckOffUnlessAsked } from './link-check-args.ts';

/**
 * A TypeScript server script run as its own process, read until it prints its
 * `listening <url>` line: how the browser tests, the crash test and the bench start
 * the real server (and the bench its bare baseline).
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** The Shelf server, run from source or from its bundle (the bench's baselines take other arguments). */
const SHELF_SERVER = /(^|\/)server\/main\.(ts|js)$/;

/** A server running in its own process, so that the load generator never shares its event loop. */
export interface ServerProcess {
  pid: number;
  /** The URL of its `listening <url>` line (the Shelf server's is its /v1 base URL). */
  url: string;
  /** Its stdout lines up to and including that one. */
  banner: string[];
  /** Resident set size now, from /proc; null where /proc is not there. */
  rssBytes(): number | null;
  /** SIGTERM, then SIGKILL if it has not exited in time. */
  stop(): Promise<void>;
  /** SIGKILL at once, as a crash would. */
  kill(): Promise<void>;
  /** How it ended ("code 1", "SIGKILL"), or null while it runs. */
  exited(): string | null;
  /** The last few kB it wrote on stderr. */
  stderr(): string;
}

const running = new Set<ChildProcess>();
// Servers must not outlive the process that started them, however it ends.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A TypeScript script runs through tsx; `nodeArgs: []` runs a built JavaScript file with plain node. */
export function startServerProcess(script: string, args: string[], nodeArgs: string[] = ['--import', 'tsx']): Promise<ServerProcess> {
  const serverArgs = SHELF_SERVER.test(script) ? linkCheckOffUnlessAsked(args) : args;
  const child = spawn(process.execPath, [...nodeArgs, script, ...serverArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));

  return new Promise((resolve, reject) => {
    const banner: string[] = [];
    let listening = false;
    const lines = createInterface({ input: child.stdout! });
    const fail = (why: string) => {
      if (listening) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${script} ${why}${stderr ? `:\n${stderr.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`printed no "listening" line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    child.once('exit', (code) => fail(`exited (code ${code}) before listening`));
    child.once('error', (err) => fail(`could not start (${err.message})`));
    lines.on('line', (line) => {
      if (listening) return; // later output is drained, not kept
      banner.push(line);
      const url = line.match(/listening (\S+)/)?.[1];
      if (url === undefined) return;
      listening = true;
      clearTimeout(timer);
      resolve({
        pid: child.pid!,
        url,
        banner,
        rssBytes: () => rssOf(child.pid!),
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(killer);
        },
        kill: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGKILL');
          await exited;
        },
        exited: () => (child.signalCode ?? (child.exitCode === null ? null : `code ${child.exitCode}`)),
        stderr: () => stderr,
      });
    });
  });
}

function rssOf(pid: number): number | null {
  try {
    const kb = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}
