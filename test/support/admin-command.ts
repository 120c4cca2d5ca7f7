import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type AdminOutput, adminMain } from '../../server/admin/main.ts';
import type { TestServer } from './server.ts';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
}

type OnServer = Pick<TestServer, 'dataDir' | 'server'>;

/** The admin command line on a test server's database (its data directory, or its PostgreSQL database under the server-postgres project). */
function adminArgs(t: OnServer, args: string[]): string[] {
  const databaseUrl = t.server.deps.config.databaseUrl;
  const database = databaseUrl === null ? ['--data', t.dataDir] : ['--database', databaseUrl];
  // Under the server-redis project the servers keep their blocks in that Redis: so does the command.
  const redis = process.env.SHELF_TEST_REDIS_URL ? ['--redis', process.env.SHELF_TEST_REDIS_URL] : [];
  return [...database, ...redis, ...args];
}

/** The admin command on a test server's database, run as outside tools run it (through npm run); its exit code, never a throw. */
export async function runAdmin(t: OnServer, ...args: string[]): Promise<AdminResult> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'admin', '--', ...adminArgs(t, args)], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as AdminResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * As runAdmin, through the command's own entry (adminMain) in this process: the same command line and output,
 * without the seconds a process started through tsx takes. Each file keeps a runAdmin of the paths it checks.
 */
export function runAdminInProcess(t: OnServer, ...args: string[]): Promise<AdminResult> {
  return adminInProcess(adminArgs(t, args));
}

/** A command's entry, as server/admin.ts and server/copy-to-postgres.ts run it. */
type CommandMain = (argv: string[], env: Record<string, string | undefined>, out: AdminOutput) => Promise<number>;

/** A command line `argv` through the command's own entry in this process, its lines collected as a process's would be. */
export async function commandInProcess(main: CommandMain, argv: string[], env: Record<string, string> = {}): Promise<AdminResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { ...process.env, ...env }, { log: (line) => (stdout += `${line}\n`), error: (line) => (stderr += `${line}\n`) });
  return { code, stdout, stderr };
}

/** The admin command line `argv` through its own entry in this process (`env`: variables added to this process's). */
export const adminInProcess = (argv: string[], env: Record<string, string> = {}): Promise<AdminResult> => commandInProcess(adminMain, argv, env);
