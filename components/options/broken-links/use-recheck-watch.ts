import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Bookmark, LinkStatus } from '../../../lib/api/bookmarks.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';
import { linkStatusList } from './use-broken-links.ts';

/**
 * When the view reads the lists again after a re-check request: the server answers the request before any check,
 * and its checker paces each site (one link per host every few seconds), so a link may wait behind others of
 * its site. Sooner at first, about three minutes in all.
 */
export const RECHECK_READS_MS = [500, 1_000, 2_000, 3_000, 5_000, 8_000, 13_000, 20_000, 30_000, 30_000, 30_000, 30_000];

/** What came of a re-check: links no longer listed (they work again), links listed with a new answer, links not checked yet. */
export interface RecheckResult {
  /** The ids of the links that work again. */
  fine: string[];
  listed: number;
  waiting: number;
}

/** A re-check asked for: each link's last check when it was asked (null: not shown then). */
type Asked = ReadonlyMap<string, string | null>;

/** The bookmarks the groups of these statuses hold now. */
function listed(qc: QueryClient, statuses: readonly LinkStatus[]): Bookmark[] {
  return statuses.flatMap((status) => qc.getQueryData(linkStatusList(status).queryKey)?.pages.flatMap((page) => page.bookmarks) ?? []);
}

/**
 * Reads the counts, then every group that has links (a group new since is read whole), so the view shows what
 * the checker found; answers the statuses that have links.
 */
async function readLists(qc: QueryClient, statuses: readonly LinkStatus[]): Promise<LinkStatus[]> {
  const counts = await qc.fetchQuery({ queryKey: keys.linkStatusCounts, queryFn: () => sendLibrary('linkStatusCounts', {}), staleTime: 0 });
  const withLinks = statuses.filter((status) => counts.some((c) => c.linkStatus === status && c.count > 0));
  await Promise.all(withLinks.map((status) => qc.fetchInfiniteQuery({ ...linkStatusList(status), staleTime: 0 })));
  return withLinks;
}

/**
 * Watches the links of a re-check until the checker has answered for each: the open view changes by itself,
 * a link that works again leaving its group. `statuses` are the groups the view shows.
 */
export function useRecheckWatch(statuses: readonly LinkStatus[], onDone: (result: RecheckResult) => void) {
  const qc = useQueryClient();
  const [asked, setAsked] = useState<Asked>(new Map());
  const [read, setRead] = useState(0);
  // The latest callback, without restarting the wait at each render of the view.
  const done = useRef(onDone);
  done.current = onDone;

  useEffect(() => {
    if (asked.size === 0) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      const withLinks = await readLists(qc, statuses).catch(() => null);
      if (cancelled) return;
      const shown = new Map((withLinks === null ? [] : listed(qc, withLinks)).map((b) => [b.id, b]));
      const fine: string[] = [];
      let answered = 0;
      let waiting = 0;
      for (const [id, before] of asked) {
        const now = shown.get(id);
        if (withLinks !== null && !now) fine.push(id);
        else if (now && now.lastCheckedAt !== before) answered++;
        else waiting++;
      }
      if (waiting === 0 || read + 1 >= RECHECK_READS_MS.length) {
        setAsked(new Map());
        setRead(0);
        done.current({ fine, listed: answered, waiting });
      } else {
        setRead(read + 1);
      }
    }, RECHECK_READS_MS[read]);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [asked, read, qc, statuses]);

  /** Starts watching these links, as the view shows them now. */
  const watch = (ids: readonly string[]) => {
    const before = new Map(listed(qc, statuses).map((b) => [b.id, b.lastCheckedAt]));
    setAsked((now) => new Map([...now, ...ids.map((id) => [id, before.get(id) ?? null] as const)]));
    setRead(0);
  };
  return { watch, watching: asked.size > 0 };
}
