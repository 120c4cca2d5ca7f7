import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

/**
 * A throwaway redis-server (Debian's package): a free port, a temp dir. Nothing persisted,
 * unless `persistent`: then it keeps an append-only file, as deploy/compose.yaml runs it, and
 * `kill` and `restart` (on the same port and dir) show what survives a crash.
 */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash would; its dir is kept for a restart. */
  kill(): Promise<void>;
  /** Starts it again on the same port and dir (after kill). */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing is answered, as a Redis stuck on its disk. SIGCONT: it carries on. */
  freeze(): void;
  thaw(): void;
}

const REDIS_SERVER = '/usr/bin/redis-server';
const START_TIMEOUT_MS = 10_000;

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startRedis(options: { persistent?: boolean } = {}): Promise<TestRedis> {
  // The port is free when asked and taken a moment later; another process may take it meanwhile.
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-redis-'));
    const port = await freePort();
    const persistence = options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence, '--loglevel', 'notice'];
    try {
      let current = await startProcess(args);
      const stopAndForget = async (signal: NodeJS.Signals) => {
        await current.stop(signal);
        rmSync(dir, { recursive: true, force: true });
      };
      return {
        url: `redis://127.0.0.1:${port}`,
        stop: () => stopAndForget('SIGTERM'),
        kill: () => current.stop('SIGKILL'),
        freeze: () => current.signal('SIGSTOP'),
        thaw: () => current.signal('SIGCONT'),
        restart: async () => {
          current = await startProcess(args);
        },
      };
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      if (attempt === 3) throw err;
    }
  }
}

function startProcess(args: string[]): Promise<{ stop(signal: NodeJS.Signals): Promise<void>; signal(signal: NodeJS.Signals): void }> {
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  let output = '';
  let ready = false;
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      if (ready) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`redis-server ${why}:\n${output.trim()}`));
    };
    const timer = setTimeout(() => fail(`was not ready within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    child.once('error', (err) => fail(`could not start (${err.message}; is the redis-server package installed?)`));
    child.once('exit', (code) => fail(`exited (code ${code}) before it was ready`));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (ready) return; // later output is drained, not kept
      output += chunk;
      if (!output.includes('Ready to accept connections')) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        stop: async (signal) => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
        signal: (signal) => void child.kill(signal),
      });
    });
  });
}
