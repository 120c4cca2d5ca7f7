import type { Bookmark, LinkStatus } from '../api/bookmarks.ts';
import type { Condition, SmartFolder } from '../api/smart-folders.ts';
import type { BrowseSource } from '../messaging/library-requests.ts';
import { FIND_PAGE, type ListFilter } from './find-source.ts';
import { type ParsedQuery, type Term, siteDomain } from './parse.ts';

/** The link statuses `is:broken` finds: the page is gone, failing or silent (a redirect still reaches a page). */
export const BROKEN_STATUSES: readonly LinkStatus[] = ['broken', 'error', 'unreachable'];

/** The most requests one step of a search (its first results, or each Load more) sends. */
export const STEP_REQUESTS = 4;

/** What the plan needs to know of the library: names to ids, the counts that tell a small list from a large one, and the user's smart folders. */
export interface LibraryNames {
  collections: ReadonlyArray<{ id: string; name: string; bookmarkCount: number }>;
  tags: ReadonlyArray<{ id: string; name: string; count: number }>;
  smartFolders: ReadonlyArray<Pick<SmartFolder, 'id' | 'name' | 'rules'>>;
}

/** Where the candidates come from; every candidate is then checked against the whole query (`accepts`). */
export type PlanSource =
  /** The API's text search for one term (the longest): one request, at most FIND_PAGE answers. */
  | { kind: 'search'; q: string }
  /** GET /bookmarks with the API's filters, page by page. */
  | { kind: 'list'; filter: ListFilter }
  /** Each tag's bookmarks (a `#a/b` branch is the tag and the tags under it): a request per tag. */
  | { kind: 'tags'; tags: ReadonlyArray<{ id: string; name: string; count: number }> }
  /**
   * The API's evaluation of one of the user's smart folders whose matches hold
   * every match of the search: it walks a tag whole (up to the API's 500
   * matches), where a tag's list stops at 200. A heavy endpoint: a request a step.
   */
  | { kind: 'folder'; id: string; name: string }
  /** Nothing can match (a collection or tag that does not exist): no request; `reason` says why. */
  | { kind: 'none'; reason: string };

export interface SearchPlan {
  source: PlanSource;
  accepts(bookmark: Bookmark): boolean;
  /** The words and phrases the results are ranked by, lowercase. */
  rankTerms: string[];
}

const lower = (s: string) => s.toLocaleLowerCase();
const inBranch = (tag: string, branch: string) => {
  const t = lower(tag);
  const b = lower(branch);
  return t === b || t.startsWith(`${b}/`);
};
const textOf = (b: Bookmark) => lower(`${b.title}\n${b.description}\n${b.url}`);

/**
 * Maps a parsed search, asked inside `scope`, to where its candidates are read
 * from with the fewest requests, and to the check each candidate passes. The
 * API's own filters come first; a small collection is listed whole rather than
 * searched (its count is known, and a list is exact); a tag or branch whose
 * every tag fits one answer is read tag by tag; otherwise the API's search for
 * the longest word, or the list with its filters, page by page.
 */
export function planSearch(parsed: ParsedQuery, scope: BrowseSource, library: LibraryNames): SearchPlan {
  const terms: Term[] = [...parsed.terms];
  const checks: Array<(b: Bookmark) => boolean> = [];
  const filter: ListFilter = {};
  const none = (reason: string): SearchPlan => ({ source: { kind: 'none', reason }, accepts: () => false, rankTerms: [] });

  const scopeCollection = scope.kind === 'collection' ? library.collections.find((c) => c.id === scope.id) : undefined;
  if (scope.kind === 'collection') {
    filter.collectionId = scope.id;
    checks.push((b) => b.collectionId === scope.id);
  }
  if (scope.kind === 'tag') {
    const tag = library.tags.find((t) => t.id === scope.id);
    if (!tag) return none('This tag no longer exists.');
    terms.push({ kind: 'tag', name: tag.name, exclude: false });
  }
  if (scope.kind === 'favorites') terms.push({ kind: 'is', value: 'favorite' });
  if (scope.kind === 'unsorted') terms.push({ kind: 'is', value: 'unsorted' });

  const text: string[] = [];
  /** The tag branches the search asks for, each as the tags it stands for. */
  const wanted: Array<{ name: string; tags: LibraryNames['tags'] }> = [];
  let branch: LibraryNames['tags'] | null = null;
  let named: LibraryNames['collections'][number] | undefined = scopeCollection;
  for (const term of terms) {
    switch (term.kind) {
      case 'word':
      case 'phrase': {
        const t = lower(term.text);
        if (term.exclude) checks.push((b) => !textOf(b).includes(t));
        else {
          text.push(t);
          checks.push((b) => textOf(b).includes(t));
        }
        break;
      }
      case 'tag': {
        if (term.exclude) {
          checks.push((b) => !b.tags.some((t) => inBranch(t, term.name)));
          break;
        }
        const tags = library.tags.filter((t) => inBranch(t.name, term.name));
        if (tags.length === 0) return none(`No tag is named "${term.name}".`);
        wanted.push({ name: term.name, tags });
        // With several tags asked for, the smallest branch is the one read.
        const size = (ts: LibraryNames['tags']) => ts.reduce((n, t) => n + t.count, 0);
        if (branch === null || size(tags) < size(branch)) branch = tags;
        checks.push((b) => b.tags.some((t) => inBranch(t, term.name)));
        break;
      }
      case 'site':
        // The API filters by one domain; a second site: leaves nothing (a bookmark has one domain).
        filter.domain ??= term.domain;
        checks.push((b) => siteDomain(b.domain) === term.domain);
        break;
      case 'in': {
        const matching = library.collections.filter((c) => lower(c.name) === lower(term.collection));
        if (matching.length === 0) return none(`No collection is named "${term.collection}".`);
        const ids = new Set(matching.map((c) => c.id));
        if (matching.length === 1 && filter.collectionId === undefined) {
          filter.collectionId = matching[0]!.id;
          named = matching[0];
        }
        checks.push((b) => b.collectionId !== null && ids.has(b.collectionId));
        break;
      }
      case 'is':
        if (term.value === 'favorite') {
          filter.isFavorite = true;
          checks.push((b) => b.isFavorite);
        } else if (term.value === 'broken') {
          filter.linkStatus = [...BROKEN_STATUSES];
          checks.push((b) => (BROKEN_STATUSES as readonly string[]).includes(b.linkStatus));
        } else if (term.value === 'unsorted') checks.push((b) => b.collectionId === null);
        else checks.push((b) => b.tags.length === 0);
        break;
      case 'type':
        filter.type ??= term.value;
        checks.push((b) => b.type === term.value);
        break;
    }
  }

  const accepts = (b: Bookmark) => checks.every((check) => check(b));
  const plan = (source: PlanSource): SearchPlan => ({ source, accepts, rankTerms: text });
  const listed = plan({ kind: 'list', filter });
  // A collection that two pages hold: listing it is exact and costs no more than a search.
  if (named && named.bookmarkCount <= 2 * FIND_PAGE) return listed;
  if (branch && branch.length <= STEP_REQUESTS && branch.every((t) => t.count < FIND_PAGE)) return plan({ kind: 'tags', tags: branch });
  // A tag larger than its list's answer: a folder of the user's that holds every match reads the tag whole, filtered by the server.
  const capped = branch?.some((t) => t.count >= FIND_PAGE) ?? false;
  const folder = capped ? narrowest(library.smartFolders.filter((f) => holdsEveryMatch(f.rules, { wanted, filter }))) : undefined;
  if (folder) return plan({ kind: 'folder', id: folder.id, name: folder.name });
  if (text.length > 0) return plan({ kind: 'search', q: text.reduce((a, b) => (b.length > a.length ? b : a)) });
  if (Object.keys(filter).length > 0 || !branch) return listed;
  return plan({ kind: 'tags', tags: branch });
}

/** What a search asks for that a smart folder's condition can also say. */
interface Asked {
  wanted: ReadonlyArray<{ name: string; tags: LibraryNames['tags'] }>;
  filter: ListFilter;
}

/** Whether every bookmark the search asks for meets the condition (so the condition never leaves a match out). */
function implied(condition: Condition, asked: Asked): boolean {
  const value = lower(condition.value);
  switch (condition.field) {
    case 'tag':
      // `equals` is that one tag only (the API's tags have no branch), so the search's branch must be that tag alone.
      return condition.operator === 'equals'
        ? asked.wanted.some((w) => w.tags.length === 1 && lower(w.tags[0]!.name) === value)
        : asked.wanted.some((w) => w.tags.every((t) => lower(t.name).includes(value)));
    case 'domain':
      return asked.filter.domain !== undefined && (condition.operator === 'equals' ? asked.filter.domain === value : asked.filter.domain.includes(value));
    case 'type':
      return asked.filter.type === condition.value;
    case 'isFavorite':
      return condition.value === 'true' && asked.filter.isFavorite === true;
    default:
      // Dates and click counts: the search has no operator for them.
      return false;
  }
}

/**
 * Whether a folder's matches are a superset of the search's: each condition
 * (under `all`) or one of them (under `any`) follows from what is asked. A
 * folder with no condition is every bookmark, capped by the API's scan: never
 * better than the list.
 */
export function holdsEveryMatch(rules: SmartFolder['rules'], asked: Asked): boolean {
  const { conditions } = rules;
  if (conditions.length === 0) return false;
  return rules.match === 'all' || conditions.length === 1 ? conditions.every((c) => implied(c, asked)) : conditions.some((c) => implied(c, asked));
}

/** Of folders that each hold every match, the one whose rules say the most (under `all`, each condition narrows what travels). */
function narrowest<F extends Pick<SmartFolder, 'rules'>>(folders: F[]): F | undefined {
  const says = (f: F) => (f.rules.match === 'all' ? f.rules.conditions.length : 1);
  return folders.reduce<F | undefined>((best, f) => (best === undefined || says(f) > says(best) ? f : best), undefined);
}
