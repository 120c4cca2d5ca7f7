import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Collection } from '../../../lib/api/collections.ts';
import { toClientError } from '../../../lib/client/errors.ts';
import { focusRing, readOnlyInputClass, secondaryButtonClass } from '../../field-styles.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';
import { SectionError } from '../SectionError.tsx';
import { useChange } from '../use-change.ts';

/** Sharing on or off, and the public page's link to copy while it is on. */
export function ShareControl({ collection, canWrite }: { collection: Collection; canWrite: boolean }) {
  const key = keys.collectionShare(collection.id);
  const share = useQuery({ queryKey: key, queryFn: () => sendLibrary('collectionShare', { id: collection.id }) });
  const set = useChange({
    key,
    run: (shared: boolean) => sendLibrary('setCollectionShare', { id: collection.id, shared }),
    optimistic: (state: { shared: boolean; publicUrl: string }, shared: boolean) => ({ ...state, shared }),
  });
  const [copied, setCopied] = useState(false);
  const shared = share.data?.shared ?? collection.isShared;

  const copy = async () => {
    if (!share.data) return;
    await navigator.clipboard.writeText(share.data.publicUrl);
    setCopied(true);
  };

  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={shared}
          disabled={!canWrite || set.isPending}
          onChange={(e) => set.mutate(e.target.checked)}
          className={`size-4 accent-blue-600 ${focusRing}`}
        />
        Share on a public, read-only page
      </label>
      {shared && share.data && (
        <div className="flex flex-wrap gap-2">
          <input aria-label="Public link" readOnly value={share.data.publicUrl} className={readOnlyInputClass} onFocus={(e) => e.target.select()} />
          <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy link'}
          </button>
        </div>
      )}
      {(share.error ?? set.error) && <SectionError error={toClientError(share.error ?? set.error)} />}
    </div>
  );
}
