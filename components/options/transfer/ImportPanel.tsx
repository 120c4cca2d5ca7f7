import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { browser } from 'wxt/browser';
import { type Job, MAX_IMPORT_BYTES } from '../../../lib/api/jobs.ts';
import { ClientError } from '../../../lib/client/errors.ts';
import { labelClass, primaryButtonClass, secondaryButtonClass } from '../../field-styles.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';
import { SectionError, failureOf } from '../SectionError.tsx';
import { type BrowserBookmarkNode, toNetscapeHtml } from './browser-bookmarks.ts';
import { JobProgress } from './JobProgress.tsx';
import { useJob } from './use-job.ts';
import { useTurn } from './use-turn.ts';

const ACCEPT = '.html,.htm,.csv,.json,text/html,text/csv,application/json';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

function Summary({ job }: { job: Job }) {
  if (job.status === 'failed') return <p>The import failed: {job.errorMessage ?? 'the server did not say why'}. Nothing more was added.</p>;
  if (job.status !== 'completed' || !job.result) return null;
  const { imported, duplicates, skipped } = job.result;
  return (
    <div className="space-y-1">
      <p>
        Imported {plural(imported, 'bookmark', 'bookmarks')}; {plural(duplicates, 'was', 'were')} already in your library and{' '}
        {plural(skipped, 'entry was', 'entries were')} skipped.
      </p>
      {job.skippedReasons && job.skippedReasons.length > 0 && (
        <ul aria-label="Skipped entries" className="list-disc pl-5">
          {job.skippedReasons.map((s, i) => (
            <li key={i}>{s.line === undefined ? s.reason : `Line ${s.line}: ${s.reason}`}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Asks for the optional bookmarks permission (from the click: the browser wants a user gesture), reads the
 * whole tree and gives the permission back at once, read or not: the import job needs only the file made of
 * it, and Shelf has no other use for the user's bookmarks.
 */
async function readBrowserBookmarks(): Promise<string> {
  // Refused, or not asked at all (Firefox rejects a request made outside a click): either way nothing to read.
  const granted = await browser.permissions.request({ permissions: ['bookmarks'] }).catch(() => false);
  if (!granted) throw new ClientError('BOOKMARKS_NOT_ALLOWED', 'Shelf was not allowed to read this browser’s bookmarks; nothing was imported');
  try {
    return toNetscapeHtml((await browser.bookmarks.getTree()) as BrowserBookmarkNode[]);
  } finally {
    await browser.permissions.remove({ permissions: ['bookmarks'] }).catch(() => undefined);
  }
}

/**
 * Import: a file in any format the server reads, or this browser's own
 * bookmarks turned into one such file; either way one import job, with its
 * progress and a summary of what came in.
 */
export function ImportPanel() {
  const id = useId();
  const qc = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  // What the last start sent: its retry sends the same text, without asking for the browser's bookmarks again.
  const sent = useRef('');
  const start = useMutation({
    mutationFn: async (text: () => Promise<string>) => {
      sent.current = await text();
      return sendLibrary('startImport', { text: sent.current });
    },
    onMutate: () => setJobId(null),
    onSuccess: (job) => setJobId(job.id),
    onError: (error) => turn.wait(sent.current, error),
  });
  const turn = useTurn((text: string) => start.mutate(() => Promise.resolve(text)));
  const job = useJob(jobId);

  // What came in shows everywhere: the lists, and the collections and tags it made, asked of the server once.
  const completed = job.data?.status === 'completed' ? job.data.id : null;
  const refreshed = useRef<string | null>(null);
  useEffect(() => {
    if (completed === null || refreshed.current === completed) return;
    refreshed.current = completed;
    void qc.invalidateQueries({ queryKey: keys.bookmarkLists });
    void sendLibrary('listCollections', { refresh: true }).then((c) => qc.setQueryData(keys.collections, c), () => undefined);
    void sendLibrary('listTags', { refresh: true }).then((t) => qc.setQueryData(keys.tags, t), () => undefined);
  }, [completed, qc]);

  const importFile = () => {
    const file = fileRef.current?.files?.[0];
    setFileError(null);
    if (!file) return setFileError('Choose a file to import first.');
    if (file.size === 0) return setFileError(`${file.name} is empty.`);
    if (file.size > MAX_IMPORT_BYTES) return setFileError(`${file.name} is larger than 5 MB, the most the server takes in one import. Split it, or export fewer bookmarks.`);
    start.mutate(() => file.text());
  };

  const busy = start.isPending || turn.secondsLeft !== null || (job.data !== undefined && (job.data.status === 'pending' || job.data.status === 'running'));
  const failure = turn.secondsLeft === null ? failureOf(start.error ?? job.error) : null;
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <h3 id={`${id}-heading`} className="text-base font-semibold">
        Import
      </h3>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Reads a browser’s bookmark file (HTML), a Shelf JSON or CSV export, or a Pocket, Instapaper or Raindrop.io CSV export, up to 5 MB. Folders become collections; pages you already have are left as they are.
      </p>
      <div className="space-y-1">
        <label htmlFor={`${id}-file`} className={labelClass}>
          File to import
        </label>
        <input
          id={`${id}-file`}
          ref={fileRef}
          type="file"
          accept={ACCEPT}
          aria-describedby={fileError ? `${id}-file-error` : undefined}
          className="block w-full text-sm"
          onChange={() => setFileError(null)}
        />
        {fileError && (
          <p id={`${id}-file-error`} className="text-sm text-red-700 dark:text-red-400">
            {fileError}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={primaryButtonClass} disabled={busy} onClick={importFile}>
          Import file
        </button>
        <button type="button" className={secondaryButtonClass} disabled={busy} onClick={() => start.mutate(readBrowserBookmarks)}>
          Import this browser’s bookmarks
        </button>
      </div>
      {job.data && <JobProgress job={job.data} label="Import progress" />}
      <div role="status" className="text-sm">
        {job.data && <Summary job={job.data} />}
        {turn.secondsLeft !== null && (
          <p>Your import waits for its turn: the server takes one import, export or emptying of the trash a minute. Shelf starts it by itself when the time comes.</p>
        )}
      </div>
      {turn.secondsLeft !== null && (
        // Outside the status region: a screen reader hears the wait once, not every second of it.
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <p>Starts in {turn.secondsLeft === 1 ? '1 second' : `${turn.secondsLeft} seconds`}.</p>
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => {
              turn.cancel();
              start.reset();
            }}
          >
            Cancel import
          </button>
        </div>
      )}
      {failure && <SectionError error={failure} />}
    </section>
  );
}
