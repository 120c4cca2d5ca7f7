import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The admin command on a data directory, run as outside tools run it (through npm run); its exit code, never a throw. */
export async function runAdmin(dataDir: string, ...args: string[]): Promise<AdminResult> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'admin', '--', '--data', dataDir, ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as AdminResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
