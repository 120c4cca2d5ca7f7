import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { SmartFolder } from '../../../lib/api/smart-folders.ts';
import { secondaryButtonClass } from '../../field-styles.ts';
import { keys } from '../../library/query-keys.ts';
import { recordOpen } from '../../library/record-open.ts';
import { sendLibrary } from '../../library/send.ts';
import { useNow } from '../../library/use-now.ts';
import { SectionError, failureOf } from '../SectionError.tsx';

/** How many of the first matches the preview lists. */
const SHOWN = 10;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The first bookmarks a saved folder matches. Evaluation is a heavy endpoint
 * the side panel spends too (two a minute for all folders together), so it
 * runs only when asked, through the background's one budget, and the button
 * says when the next one is possible.
 */
export function SmartFolderPreview({ folder }: { folder: SmartFolder }) {
  const qc = useQueryClient();
  const results = useQuery({ queryKey: keys.smartFolder(folder.id), queryFn: () => sendLibrary('smartFolderResults', { id: folder.id }) });
  const evaluate = useMutation({
    mutationFn: () => sendLibrary('evaluateSmartFolder', { id: folder.id, restart: true }),
    onSuccess: (view) => qc.setQueryData(keys.smartFolder(folder.id), view),
  });
  const view = evaluate.data ?? results.data;
  const nextAt = view?.nextEvaluationAt ?? null;
  const now = useNow(nextAt !== null);
  const waitMs = nextAt === null ? 0 : nextAt - now;
  const { mutate } = evaluate;
  const started = useRef(false);

  // Opened by the folder's Preview button: that click is the request (once, even when StrictMode runs effects twice).
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  const failure = failureOf(results.error ?? evaluate.error);
  const shown = evaluate.isSuccess ? (view?.bookmarks.slice(0, SHOWN) ?? []) : [];
  return (
    <section aria-label={`Preview of ${folder.name}`} className="space-y-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={secondaryButtonClass} disabled={evaluate.isPending || waitMs > 0} onClick={() => mutate()}>
          Preview matches
        </button>
        <p role="status" className="text-sm">
          {evaluate.isPending
            ? 'Looking for matches…'
            : waitMs > 0
              ? `Smart folders can search twice a minute: you can preview again in ${seconds(waitMs)} s.`
              : ''}
        </p>
      </div>
      {failure && <SectionError error={failure} />}
      {evaluate.isSuccess && view && view.pages > 0 && (
        <>
          <p className="text-sm">
            {shown.length === 0
              ? 'No bookmark matches on the first page of results.'
              : `The first ${shown.length === 1 ? 'match' : `${shown.length} matches`}${view.complete ? '' : ' (more are on later pages)'}:`}
          </p>
          <ul aria-label={`First matches of ${folder.name}`} className="space-y-1 text-sm">
            {shown.map((b) => (
              <li key={b.id} className="truncate">
                <a href={b.url} target="_blank" rel="noreferrer" className="underline" onClick={() => recordOpen(b.id)} onAuxClick={(event) => event.button === 1 && recordOpen(b.id)}>
                  {b.title}
                </a>{' '}
                <span className="text-zinc-600 dark:text-zinc-400">{b.domain}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
