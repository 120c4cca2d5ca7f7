import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type ClientError, toClientError } from '../../../lib/client/errors.ts';
import { secondaryButtonClass } from '../../field-styles.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';
import { SectionError } from '../SectionError.tsx';
import { useCollectionChanges } from './changes.ts';

/**
 * Collections in the trash, each with Restore. One too large to restore at
 * once gets the spec's way out: restore some of its bookmarks first (they come
 * back unsorted), restore it, then move them back.
 */
export function TrashedCollections({ canWrite }: { canWrite: boolean }) {
  const trashed = useQuery({ queryKey: keys.trashedCollections, queryFn: () => sendLibrary('listTrashedCollections', {}) });
  const { restore } = useCollectionChanges();
  const [failed, setFailed] = useState<{ id: string; error: ClientError } | null>(null);
  const list = trashed.data ?? [];

  return (
    <section aria-labelledby="trashed-collections" className="space-y-2">
      <h3 id="trashed-collections" className="text-base font-semibold">
        Collections in the trash
      </h3>
      {trashed.error && <SectionError error={toClientError(trashed.error)} />}
      {trashed.isSuccess && list.length === 0 && <p className="text-sm text-zinc-700 dark:text-zinc-300">None.</p>}
      <ul className="max-h-72 space-y-1 overflow-y-auto" aria-label="Collections in the trash">
        {list.map((c) => (
          <li key={c.id} className="space-y-1">
            <div className="flex items-center justify-between gap-2 text-sm">
              <span className="truncate">{c.name}</span>
              {canWrite && (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  aria-label={`Restore ${c.name}`}
                  onClick={() => restore.mutate(c.id, { onError: (err) => setFailed({ id: c.id, error: toClientError(err) }), onSuccess: () => setFailed(null) })}
                >
                  Restore
                </button>
              )}
            </div>
            {failed?.id === c.id &&
              (failed.error.code === 'COLLECTION_TOO_LARGE' ? (
                <div role="alert" className="space-y-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
                  <p className="font-medium">“{c.name}” is too large to restore at once (more than 1,000 collections and bookmarks together). Nothing was changed.</p>
                  <ol className="list-decimal space-y-1 pl-5">
                    <li>
                      In <a href="#trash" className="underline">Trash</a>, restore some of its bookmarks: they come back to Unsorted.
                    </li>
                    <li>Restore “{c.name}” here again.</li>
                    <li>Move those bookmarks back into it from Unsorted (the side panel’s “Move to…”).</li>
                  </ol>
                  <p>Do not empty the trash for this: it destroys bookmarks that should come back.</p>
                </div>
              ) : (
                <SectionError error={failed.error} />
              ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
