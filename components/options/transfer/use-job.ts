import { useQuery } from '@tanstack/react-query';
import type { Job } from '../../../lib/api/jobs.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';

/** How often a running job is asked about: its progress moves in batches, and the per-address limit is 60 a minute. */
const POLL_MS = 1000;

export const finished = (job: Job): boolean => job.status === 'completed' || job.status === 'failed';

/** A job, asked about again every second until it completes or fails. */
export const useJob = (id: string | null) =>
  useQuery({
    queryKey: keys.job(id ?? ''),
    queryFn: () => sendLibrary('getJob', { id: id ?? '' }),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && finished(query.state.data) ? false : POLL_MS),
  });
