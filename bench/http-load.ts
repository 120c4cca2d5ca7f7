import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { z } from 'zod';

const WRK = '/usr/bin/wrk';
const run = promisify(execFile);

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadTarget {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /**
   * A Lua expression of `n` (the request's number in its run) giving each request
   * its own body: wrk cannot call back into this process.
   */
  bodyLua?: string;
}

export interface LoadResult {
  /** Successful responses per second of the measured run. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  /** Responses that were not 2xx or 3xx and socket errors: any of them spoils the figure. */
  failures: string[];
}

/**
 * One target under load from wrk (one thread, so that on a small machine the
 * server keeps a core to itself): a warm-up run that is thrown away, then the
 * measured run, both with the same settings. wrk is a separate native process, so
 * the load generator costs the server nothing of its own event loop and is not
 * itself the bottleneck (an in-process autocannon saturates near 6,000 req/s on
 * 39 KB answers). `scriptPath` is where the run's Lua script is written.
 */
export async function measureLoad(target: LoadTarget, settings: LoadSettings, scriptPath: string): Promise<LoadResult> {
  writeFileSync(scriptPath, luaScript(target));
  if (settings.warmupSeconds > 0) await wrk(target.url, scriptPath, settings.connections, settings.warmupSeconds);
  const summary = await wrk(target.url, scriptPath, settings.connections, settings.durationSeconds);
  const { connect, read, write, status, timeout } = summary.errors;
  const failures: string[] = [];
  if (status > 0) failures.push(`${status} answers not 2xx or 3xx`);
  if (connect + read + write + timeout > 0) failures.push(`socket errors: ${connect} connect, ${read} read, ${write} write, ${timeout} timeouts`);
  const ok = summary.requests - status;
  if (ok === 0) failures.push('no successful response');
  return {
    requestsPerSecond: ok / (summary.durationUs / 1e6),
    p50Ms: summary.p50Us / 1000,
    p99Ms: summary.p99Us / 1000,
    ok,
    failures,
  };
}

/**
 * Sends `count` GETs, `connections` at a time, from this process (wrk cannot stop
 * after a number of requests): for what a number of requests leaves behind, not for a rate.
 */
export async function sendRequests(url: (i: number) => string, headers: Record<string, string>, count: number, connections: number): Promise<void> {
  let next = 0;
  const failures = new Map<number, number>();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const res = await fetch(url(next++), { headers });
        await res.arrayBuffer();
        if (!res.ok) failures.set(res.status, (failures.get(res.status) ?? 0) + 1);
      }
    }),
  );
  if (failures.size > 0) throw new Error(`answers ${[...failures].map(([status, n]) => `${n} × HTTP ${status}`).join(', ')}`);
}

const WrkSummary = z.object({
  requests: z.number(),
  durationUs: z.number(),
  errors: z.object({ connect: z.number(), read: z.number(), write: z.number(), status: z.number(), timeout: z.number() }),
  p50Us: z.number(),
  p99Us: z.number(),
});

async function wrk(url: string, script: string, connections: number, seconds: number): Promise<z.infer<typeof WrkSummary>> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url];
  const { stdout } = await run(WRK, args, { maxBuffer: 1024 * 1024 }).catch((err: NodeJS.ErrnoException) => {
    throw new Error(err.code === 'ENOENT' ? `${WRK} is not installed (apt-get install wrk)` : `wrk failed: ${err.message}`);
  });
  const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
  if (line === undefined) throw new Error(`wrk printed no summary:\n${stdout}`);
  return WrkSummary.parse(JSON.parse(line));
}

/** A Lua string literal of an ASCII string (header names and values, a method). */
const luaString = (s: string): string => `"${s.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;

function luaScript(target: LoadTarget): string {
  const headers = Object.entries(target.headers)
    .map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`)
    .join('\n');
  return `
wrk.method = ${luaString(target.method)}
${headers}
local n = 0
${
  target.bodyLua === undefined
    ? ''
    : `request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, ${target.bodyLua})
end`
}
done = function(summary, latency)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(99)))
end
`;
}
