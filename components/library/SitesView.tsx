import { useState } from 'react';
import { toClientError } from '../../lib/client/errors.ts';
import { ErrorAlertWithSignIn } from '../account/SignInAgain.tsx';
import { bookmarkCount } from '../options/count.ts';
import { focusRing, inputClass } from '../field-styles.ts';
import { useDomains } from './use-library-counts.ts';

const rowClass = `flex w-full items-center justify-between gap-2 rounded px-2 py-1 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800 ${focusRing}`;

/** The library's sites, with how many bookmarks each has; choosing one searches `site:` it. */
export function SitesView({ onSearch }: { onSearch(text: string): void }) {
  const domains = useDomains();
  const [filter, setFilter] = useState('');
  if (domains.error) return <ErrorAlertWithSignIn error={toClientError(domains.error)} />;
  if (!domains.data) return <p role="status" className="p-4 text-sm text-zinc-500">Loading…</p>;
  const q = filter.trim().toLowerCase();
  const shown = domains.data.filter((d) => d.domain.includes(q));
  return (
    <div className="min-h-0 flex-1 space-y-2 overflow-y-auto p-2">
      <label className="block">
        <span className="sr-only">Filter sites</span>
        <input className={inputClass} placeholder="Filter sites" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </label>
      {shown.length === 0 ? (
        <p className="px-2 text-sm text-zinc-500">{domains.data.length === 0 ? 'No bookmarks yet.' : 'No site matches.'}</p>
      ) : (
        <ul aria-label="Sites">
          {shown.map((d) => (
            <li key={d.domain}>
              <button type="button" className={rowClass} aria-label={`${d.domain}, ${bookmarkCount(d.count)}`} onClick={() => onSearch(`site:${d.domain}`)}>
                <span className="truncate">{d.domain}</span>
                <span className="text-xs text-zinc-500 dark:text-zinc-400">{d.count}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
