import type { Job } from '../../../lib/api/jobs.ts';

const STATUS: Record<Job['status'], string> = { pending: 'Waiting to start', running: 'Running', completed: 'Done', failed: 'Failed' };

/** A job's progress as a bar the screen reader reads as a percentage, with its state in words. */
export function JobProgress({ job, label }: { job: Job; label: string }) {
  // The API's progress is a whole percentage.
  const percent = Math.min(100, Math.max(0, Math.round(job.progress)));
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${STATUS[job.status]}, ${percent}%`}
        className="h-2 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div className="h-full bg-blue-600 dark:bg-blue-400" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-zinc-700 dark:text-zinc-300">
        {STATUS[job.status]} · {percent}%
      </p>
    </div>
  );
}
