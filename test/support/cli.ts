import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { z } from 'zod';
import { linkCheckOffUnlessAsked } from './link-check-args.ts';

/** The project's commands, run exactly as outside tools run them: through npm run. */

export const root = new URL('../../', import.meta.url).pathname;

export interface Started {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  stdout: string;
}

/**
 * `npm run --silent <script> -- ...args`, resolved once it prints its listening line. It waits for that line or the
 * exit, however long: a bound of its own (15 s) failed at load 20, where npm and tsx took longer to start; a start that
 * never ends is the test's timeout.
 */
export async function startServerProcess(args: string[] = [], env: Record<string, string> = {}, script = 'server'): Promise<Started> {
  const child = spawn('npm', ['run', '--silent', script, '--', ...linkCheckOffUnlessAsked(args)], { cwd: root, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = stdout.match(/listening (http:\/\/\S+\/v1)/);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stdout}${stderr}`)));
  });
  return { child, baseUrl, stdout };
}

export function stop(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

const run = promisify(execFile);

/** `npm run --silent <script> -- ...args` to its end (`env`: variables added to this process's). */
export async function npmRun(script: string, args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], { cwd: root, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The one JSON line an admin command prints. */
export const jsonLine = <S extends z.ZodType>(schema: S, stdout: string): z.output<S> => {
  expect(stdout.trim().split('\n')).toHaveLength(1);
  return schema.parse(JSON.parse(stdout));
};
