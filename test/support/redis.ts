import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

/** A throwaway redis-server (Debian's package): a free port, a temp dir, nothing persisted. */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

const REDIS_SERVER = '/usr/bin/redis-server';
const START_TIMEOUT_MS = 10_000;

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startRedis(): Promise<TestRedis> {
  // The port is free when asked and taken a moment later; another process may take it meanwhile.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort());
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

function startOn(port: number): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-redis-'));
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--loglevel', 'notice'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    running.delete(child);
    rmSync(dir, { recursive: true, force: true });
  });
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
        url: `redis://127.0.0.1:${port}`,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
