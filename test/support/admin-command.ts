import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestServer } from './server.ts';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The admin command on a test server's database (its data directory, or its PostgreSQL database under
 * the server-postgres project), run as outside tools run it (through npm run); its exit code, never a throw.
 */
export async function runAdmin(t: Pick<TestServer, 'dataDir' | 'server'>, ...args: string[]): Promise<AdminResult> {
  const databaseUrl = t.server.deps.config.databaseUrl;
  const database = databaseUrl === null ? ['--data', t.dataDir] : ['--database', databaseUrl];
  try {
    // Under the server-redis project the servers keep their blocks in that Redis: so does the command.
    const redis = process.env.SHELF_TEST_REDIS_URL ? ['--redis', process.env.SHELF_TEST_REDIS_URL] : [];
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'admin', '--', ...database, ...redis, ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as AdminResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
