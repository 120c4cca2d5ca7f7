import type { Bookmark } from '../api/bookmarks.ts';
import type { BrowsePage, SmartFolderView } from '../messaging/library-replies.ts';
import { FIND_PAGE, type FindSource } from './find-source.ts';
import { STEP_REQUESTS, type SearchPlan } from './plan.ts';

/** How a search reaches the API (through the background's messages, which keep within the request budget). */
export interface SearchFetchers {
  search(q: string, limit: number): Promise<Bookmark[]>;
  find(source: FindSource): Promise<BrowsePage>;
  /** A smart folder's matches as the background keeps them, without a request. */
  keptFolder(id: string): Promise<SmartFolderView>;
  /** One evaluation request of the folder (a new pass with `restart`), when the heavy budget has room at once. */
  evaluateFolder(id: string, restart: boolean): Promise<SmartFolderView>;
}

/** Where the next step goes on from: the search's next limit, the list's cursor, the next tag of a branch. */
export type SearchContinuation = { limit: number } | { cursor: string } | { tag: number } | { folderPages: number };

export interface SearchStep {
  /** The candidates of this step that match the whole query, in the order the API gave them. */
  matches: Bookmark[];
  /** Bookmarks looked at in this step. */
  examined: number;
  requests: number;
  next: SearchContinuation | null;
  /** Set when a cap of the API cut what could be looked through: a plain sentence for the user. */
  partial: string | null;
}

/** The API's search answers first this many matches, and on Load more its most (it has no cursor). */
export const SEARCH_LIMITS = [50, FIND_PAGE] as const;
/** A step over the list stops once it has this many matches: the user sees them, and asks for more. */
const WANTED = 50;
/** A folder's kept matches younger than this are searched as kept; older ones are evaluated again. */
export const FOLDER_FRESH_MS = 5 * 60_000;

const clock = (at: number) => new Date(at).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** What a folder's evaluation left unread, for the user; null when it read every match. */
function folderPartial(name: string, view: SmartFolderView): string | null {
  if (!view.complete) {
    const when = view.nextEvaluationAt === null ? '' : ` from ${clock(view.nextEvaluationAt)}`;
    return `Read part of the smart folder "${name}" so far: the server answers two of its requests a minute. Load more reads on${when}.`;
  }
  return view.truncated ? `The server stopped reading the smart folder "${name}" at its limits (500 matches), so some bookmarks may be missing. Add words to narrow the search.` : null;
}

/**
 * One step of a plan: its first results, or the next ones after `from`, sent
 * as at most STEP_REQUESTS requests.
 */
export async function runStep(plan: SearchPlan, fetchers: SearchFetchers, from: SearchContinuation | null): Promise<SearchStep> {
  const { source, accepts } = plan;
  switch (source.kind) {
    case 'none':
      return { matches: [], examined: 0, requests: 0, next: null, partial: null };
    case 'search': {
      const limit = from && 'limit' in from ? from.limit : SEARCH_LIMITS[0];
      const found = await fetchers.search(source.q, limit);
      const full = found.length >= limit;
      const larger = SEARCH_LIMITS.find((l) => l > limit);
      return {
        matches: found.filter(accepts),
        examined: found.length,
        requests: 1,
        next: full && larger ? { limit: larger } : null,
        partial: full && !larger ? `Only the ${limit} newest bookmarks containing "${source.q}" were looked through. Add words to find older ones.` : null,
      };
    }
    case 'list': {
      let cursor = from && 'cursor' in from ? from.cursor : undefined;
      const matches: Bookmark[] = [];
      let examined = 0;
      let requests = 0;
      do {
        const page = await fetchers.find({ kind: 'list', filter: source.filter, ...(cursor !== undefined && { cursor }) });
        requests++;
        examined += page.bookmarks.length;
        matches.push(...page.bookmarks.filter(accepts));
        cursor = page.cursor ?? undefined;
      } while (cursor !== undefined && requests < STEP_REQUESTS && matches.length < WANTED);
      return { matches, examined, requests, next: cursor === undefined ? null : { cursor }, partial: null };
    }
    case 'tags': {
      const first = from && 'tag' in from ? from.tag : 0;
      const tags = source.tags.slice(first, first + STEP_REQUESTS);
      const pages = await Promise.all(tags.map((t) => fetchers.find({ kind: 'tag', id: t.id })));
      const capped = tags.filter((_, i) => pages[i]!.bookmarks.length >= FIND_PAGE).map((t) => `#${t.name}`);
      const next = first + tags.length < source.tags.length ? { tag: first + tags.length } : null;
      return {
        matches: pages.flatMap((p) => p.bookmarks).filter(accepts),
        examined: pages.reduce((n, p) => n + p.bookmarks.length, 0),
        requests: tags.length,
        next,
        partial:
          capped.length > 0
            ? `Only the first ${FIND_PAGE} bookmarks of ${capped.join(', ')} were looked through: the server lists no more of a tag at once. A smart folder with the rule "tag equals" that tag lets this search read them all.`
            : null,
      };
    }
    case 'folder': {
      const kept = from === null ? await fetchers.keptFolder(source.id) : null;
      const fresh = kept !== null && kept.complete && kept.fetchedAt !== null && Date.now() - kept.fetchedAt < FOLDER_FRESH_MS;
      // Matches kept from an earlier pass are evaluated again from the start; a pass under way goes on.
      const view = fresh ? kept : await fetchers.evaluateFolder(source.id, kept !== null && kept.complete && kept.fetchedAt !== null);
      return {
        matches: view.bookmarks.filter(accepts),
        examined: view.bookmarks.length,
        requests: view === kept ? 0 : 1,
        next: view.complete ? null : { folderPages: view.pages },
        partial: folderPartial(source.name, view),
      };
    }
  }
}
