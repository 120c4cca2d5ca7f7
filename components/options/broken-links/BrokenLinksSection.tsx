import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Bookmark, LinkStatus } from '../../../lib/api/bookmarks.ts';
import type { BulkAction } from '../../../lib/messaging/library-requests.ts';
import { dangerButtonClass, focusRing, secondaryButtonClass } from '../../field-styles.ts';
import { runBulk } from '../../library/bulk.ts';
import { keys } from '../../library/query-keys.ts';
import { relativeDate } from '../../library/relative-date.ts';
import { sendLibrary } from '../../library/send.ts';
import { bulkSummary } from '../../library/use-list-actions.ts';
import { MissingScope, useScopes } from '../scopes.tsx';
import { SectionError, failureOf } from '../SectionError.tsx';
import { plural } from '../count.ts';
import { useBookmarksByLinkStatus, useLinkStatusCounts } from './use-broken-links.ts';
import { type RecheckResult, useRecheckWatch } from './use-recheck-watch.ts';

/** The groups shown, in this order: statuses that need the user (ok and unchecked do not). */
const GROUPS: ReadonlyArray<{ status: LinkStatus; title: string; about: string }> = [
  { status: 'broken', title: 'Gone', about: 'The site says the page is not there any more.' },
  { status: 'redirected', title: 'Moved', about: 'The page now sends visitors to another address.' },
  { status: 'error', title: 'Error', about: 'The site answered with an error.' },
  { status: 'unreachable', title: 'Unreachable', about: 'The site did not answer.' },
];

const NO_LINK_CHECK = 'This server does not check links: it was started with link checking turned off. Ask whoever runs it to turn link checking on.';

const STATUSES = GROUPS.map((g) => g.status);

/** What the view says once the checker has answered for the links of a re-check, or has not in time. */
export function recheckText({ fine, listed, waiting }: RecheckResult): string {
  const parts = [fine.length > 0 && `${plural(fine.length, 'link works', 'links work')} again`, listed > 0 && `${plural(listed, 'link', 'links')} still not working`];
  const answered = parts.filter(Boolean).join(', ');
  const late = waiting > 0 && `${plural(waiting, 'link was', 'links were')} not checked yet (the server checks a few links of each site at a time); open this list later to see ${waiting === 1 ? 'it' : 'them'}`;
  return `${[answered && `Re-checked: ${answered}`, late].filter(Boolean).join('. ')}.`;
}

/** The Wayback Machine's list of copies of a page; opened by the user, nothing is fetched from it here. */
export const archiveUrl = (url: string) => `https://web.archive.org/web/*/${url}`;

/** The Broken links section: bookmarks whose link the server's checker found gone, moved, failing or silent, with re-check and trash. */
export function BrokenLinksSection() {
  const scopes = useScopes();
  const qc = useQueryClient();
  const counts = useLinkStatusCounts();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [running, setRunning] = useState(false);
  const recheck = useRecheckWatch(STATUSES, (result) => {
    setStatus({ text: recheckText(result), error: false });
    // A link that works again has left the view: it is no longer among the chosen.
    setSelected((now) => new Set([...now].filter((id) => !result.fine.includes(id))));
  });

  if (!scopes.loaded) return null;
  if (!scopes.allows('bookmarks:read')) return <MissingScope scope="bookmarks:read">Broken links cannot be shown.</MissingScope>;
  const mayChange = scopes.allows('bookmarks:write');

  const countOf = (linkStatus: LinkStatus) => counts.data?.find((c) => c.linkStatus === linkStatus)?.count ?? 0;
  const toggle = (id: string) =>
    setSelected((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const act = async (action: BulkAction, ids: string[]) => {
    setRunning(true);
    const verb = action.type === 'check' ? 'Asking for a re-check of' : 'Trashing';
    const outcome = await runBulk(sendLibrary, action, ids, (done) => setStatus({ text: `${verb} ${done} of ${ids.length}…`, error: false }));
    setRunning(false);
    const refused = action.type === 'check' && outcome.failed.some((f) => f.code === 'CONFLICT');
    setStatus({ text: refused ? NO_LINK_CHECK : bulkSummary(action, ids.length, outcome), error: outcome.failed.length > 0 });
    if (action.type === 'trash') setSelected((now) => new Set([...now].filter((id) => !outcome.done.includes(id))));
    // The server checks after it has answered: the view watches for the results and shows them as they come.
    if (action.type === 'check' && outcome.done.length > 0) recheck.watch(outcome.done);
    await qc.invalidateQueries({ queryKey: keys.bookmarkLists });
  };

  const chosen = [...selected];
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">The server checks every bookmark’s link from time to time. Links that need a look are listed here.</p>
      {!mayChange && <MissingScope scope="bookmarks:write">Re-checking and trashing are not offered.</MissingScope>}
      {mayChange && (
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={secondaryButtonClass} disabled={running || chosen.length === 0} onClick={() => void act({ type: 'check' }, chosen)}>
            Re-check selected
          </button>
          <button type="button" className={dangerButtonClass} disabled={running || chosen.length === 0} onClick={() => void act({ type: 'trash' }, chosen)}>
            Trash selected
          </button>
          <span className="text-sm text-zinc-600 dark:text-zinc-400">{chosen.length} selected</span>
        </div>
      )}
      <p role="status" className={`text-sm ${status?.error ? 'text-red-700 dark:text-red-400' : ''}`}>
        {status?.text}
      </p>
      {counts.error && <SectionError error={failureOf(counts.error)!} />}
      {counts.isSuccess && GROUPS.every((g) => countOf(g.status) === 0) && <p className="text-sm">No broken links found.</p>}
      {GROUPS.map((group) => (
        <LinkGroup
          key={group.status}
          {...group}
          count={countOf(group.status)}
          mayChange={mayChange}
          running={running}
          selected={selected}
          onToggle={toggle}
          onAct={(action, ids) => void act(action, ids)}
        />
      ))}
    </div>
  );
}

interface GroupProps {
  status: LinkStatus;
  title: string;
  about: string;
  count: number;
  mayChange: boolean;
  running: boolean;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onAct: (action: BulkAction, ids: string[]) => void;
}

function LinkGroup({ status, title, about, count, mayChange, running, selected, onToggle, onAct }: GroupProps) {
  const { list, bookmarks } = useBookmarksByLinkStatus(status, count > 0);
  if (count === 0) return null;
  const headingId = `link-group-${status}`;
  const failure = failureOf(list.error);
  return (
    <section aria-labelledby={headingId} className="rounded-md border border-zinc-200 dark:border-zinc-800">
      <h3 id={headingId} className="px-3 pt-2 text-sm font-semibold">
        {title} ({count})
      </h3>
      <p className="px-3 text-xs text-zinc-600 dark:text-zinc-400">{about}</p>
      {failure && <SectionError error={failure} />}
      <ul aria-label={`${title} links`}>
        {bookmarks.map((b) => (
          <LinkRow key={b.id} bookmark={b} mayChange={mayChange} running={running} checked={selected.has(b.id)} onToggle={onToggle} onAct={onAct} />
        ))}
      </ul>
      {list.hasNextPage && (
        <button type="button" className={`${secondaryButtonClass} m-2`} disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          Show more {title.toLowerCase()} links
        </button>
      )}
    </section>
  );
}

interface RowProps {
  bookmark: Bookmark;
  mayChange: boolean;
  running: boolean;
  checked: boolean;
  onToggle: (id: string) => void;
  onAct: (action: BulkAction, ids: string[]) => void;
}

function LinkRow({ bookmark: b, mayChange, running, checked, onToggle, onAct }: RowProps) {
  return (
    <li className="flex items-center gap-2 border-t border-zinc-100 px-3 py-2 dark:border-zinc-800">
      {mayChange && <input type="checkbox" aria-label={`Select ${b.title}`} checked={checked} onChange={() => onToggle(b.id)} className={focusRing} />}
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{b.title}</p>
        <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{b.url}</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {b.httpStatusCode > 0 ? `Answered ${b.httpStatusCode}` : 'No answer'} · checked {relativeDate(b.lastCheckedAt)}
        </p>
      </div>
      <a
        href={archiveUrl(b.url)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Open archived copy of ${b.title}`}
        className={`text-sm text-blue-700 underline dark:text-blue-400 ${focusRing}`}
      >
        Open archived copy
      </a>
      {mayChange && (
        <>
          <button type="button" className={secondaryButtonClass} aria-label={`Re-check ${b.title}`} disabled={running} onClick={() => onAct({ type: 'check' }, [b.id])}>
            Re-check
          </button>
          <button type="button" className={dangerButtonClass} aria-label={`Trash ${b.title}`} disabled={running} onClick={() => onAct({ type: 'trash' }, [b.id])}>
            Trash
          </button>
        </>
      )}
    </li>
  );
}
