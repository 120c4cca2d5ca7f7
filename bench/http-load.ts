import autocannon from 'autocannon';
import { percentile } from './stats.ts';

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadTarget {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A fresh body per request (unique URLs for POST /bookmarks). */
  body?: () => string;
}

export interface LoadResult {
  /** 2xx responses per second of the measured run. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  /** Responses that were not 2xx, by status, and connection errors: any of them spoils the figure. */
  failures: string[];
}

/**
 * One target under load: a warm-up run that is thrown away, then the measured run,
 * both with the same settings. Autocannon runs in this (the bench's) process; the
 * server it loads is always another process.
 */
export async function measureLoad(target: LoadTarget, settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmupSeconds > 0) await run(target, settings.connections, settings.warmupSeconds);
  const { result, latencies } = await run(target, settings.connections, settings.durationSeconds);
  const failures = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, { count }]) => `${count ?? 0} × HTTP ${status}`);
  if (result.errors > 0) failures.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
  if (latencies.length === 0) failures.push('no successful response');
  return {
    requestsPerSecond: latencies.length / result.duration,
    p50Ms: latencies.length > 0 ? percentile(latencies, 50) : NaN,
    p99Ms: latencies.length > 0 ? percentile(latencies, 99) : NaN,
    ok: latencies.length,
    failures,
  };
}

/**
 * Latencies are kept from the response events rather than autocannon's histogram,
 * which rounds to whole milliseconds: too coarse for sub-millisecond medians.
 */
function run(target: LoadTarget, connections: number, seconds: number): Promise<{ result: autocannon.Result; latencies: number[] }> {
  const { body } = target;
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        connections,
        duration: seconds,
        method: target.method,
        headers: target.headers,
        requests: body === undefined ? undefined : [{ setupRequest: (request) => ({ ...request, body: body() }) }],
      },
      (err: unknown, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve({ result, latencies })),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}
