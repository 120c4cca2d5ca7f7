import type { ServerDeps } from '../deps.ts';

/** What running, scheduling and cleaning up jobs needs. */
export type JobDeps = Pick<ServerDeps, 'store' | 'storage' | 'clock' | 'config' | 'jobRunner' | 'instanceId'>;
