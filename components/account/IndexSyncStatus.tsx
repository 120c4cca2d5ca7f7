import { useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import { type IndexSyncProgress, indexSyncItem } from '../../lib/storage/background-items.ts';

const count = (n: number) => n.toLocaleString('en');

/** How far the saved-page sync has come (it fills the index the toolbar icon reads), live from storage. */
export function IndexSyncStatus() {
  const [progress, setProgress] = useState<IndexSyncProgress | null>(null);
  useEffect(() => {
    let live = true;
    const read = () => void indexSyncItem.get().then((p) => live && setProgress(p), () => undefined);
    const changed = (changes: Record<string, unknown>, area: string) => area === 'local' && 'indexSync' in changes && read();
    read();
    browser.storage.onChanged.addListener(changed);
    return () => {
      live = false;
      browser.storage.onChanged.removeListener(changed);
    };
  }, []);

  if (progress === null) return null;
  const { fetched, total, running, full } = progress;
  return (
    <div role="status" className="space-y-1 text-sm text-zinc-700 dark:text-zinc-300">
      {running ? (
        <>
          <p>
            Syncing saved pages: {count(fetched)}
            {total !== null && ` of ${count(total)}`}
          </p>
          {total !== null && <progress aria-label="Saved-page sync" className="w-full" value={fetched} max={Math.max(total, 1)} />}
        </>
      ) : (
        <p>{full ? `Saved pages synced: ${count(fetched)}${total !== null && fetched < total ? ` of ${count(total)} (stopped; the next sync starts over)` : ''}.` : 'Saved pages are up to date.'}</p>
      )}
    </div>
  );
}
