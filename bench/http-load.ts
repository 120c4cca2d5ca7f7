import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { z } from 'zod';

const WRK = '/usr/bin/wrk';
const run = promisify(execFile);

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Measured runs per target, taken in turns across the targets so that a busy spell on the machine hits all of them. */
  rounds: number;
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
  /** The server process's CPU time (user + system) per answered request: what a busy machine disturbs least. */
  cpuUsPerRequest: number;
  /** Responses that were not 2xx or 3xx and socket errors: any of them spoils the figure. */
  failures: string[];
}

/**
 * A target under load from wrk (one thread, so that on a small machine the server
 * keeps a core to itself). wrk is a separate native process, so the load generator
 * costs the server nothing of its own event loop and is not itself the bottleneck
 * (an in-process autocannon saturates near 6,000 req/s on 39 KB answers).
 * `scriptPath` is where the target's Lua script is written; `serverPid` the process
 * whose CPU time is counted.
 */
export class Load {
  constructor(
    private target: LoadTarget,
    private settings: LoadSettings,
    private scriptPath: string,
    private serverPid: number,
  ) {
    writeFileSync(scriptPath, luaScript(target));
  }

  /** A run that is thrown away: the server's code paths compiled and its caches filled. */
  async warmUp(): Promise<void> {
    if (this.settings.warmupSeconds > 0) await wrk(this.target.url, this.scriptPath, this.settings.connections, this.settings.warmupSeconds);
  }

  async measure(): Promise<LoadResult> {
    const cpuBefore = cpuTicks(this.serverPid);
    const summary = await wrk(this.target.url, this.scriptPath, this.settings.connections, this.settings.durationSeconds);
    const cpu = cpuTicks(this.serverPid) - cpuBefore;
    return result(summary, cpu);
  }
}

function result(summary: WrkSummary, cpuTicksUsed: number): LoadResult {
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
    cpuUsPerRequest: ok === 0 ? NaN : (cpuTicksUsed * (1e6 / CLOCK_TICKS_PER_SECOND)) / summary.requests,
    failures,
  };
}

/** Linux's USER_HZ, in which /proc/<pid>/stat counts CPU time. */
const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat, counted after the command name's closing parenthesis). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
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

type WrkSummary = z.infer<typeof WrkSummary>;

async function wrk(url: string, script: string, connections: number, seconds: number): Promise<WrkSummary> {
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
