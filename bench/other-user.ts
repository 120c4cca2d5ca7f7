import { latencyDuring } from '../test/support/latency.ts';
import { median, percentile } from './stats.ts';
import { fmtMs } from './table.ts';

const IDLE_PROBES = 200;

/** Another user's request timed with nothing else running, 200 times: the "beside it" of a worst-request row. */
export async function otherUserAlone(probe: () => Promise<unknown>): Promise<string> {
  const idle: number[] = [];
  for (let i = 0; i < IDLE_PROBES; i++) idle.push((await latencyDuring(probe, async () => undefined)).waits[0]!.ms);
  return `other user alone: p50 ${fmtMs(median(idle))} · p99 ${fmtMs(percentile(idle, 99))}`;
}
