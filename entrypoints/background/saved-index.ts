import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type SavedIndex as SavedIndexRecord, savedIndexItem } from '../../lib/storage/items.ts';
import { type FullPassState, type IndexSyncProgress, fullPassItem, indexSyncItem } from '../../lib/storage/background-items.ts';
import { normaliseUrl } from '../../lib/url.ts';
import { rememberedItem } from '../../lib/storage/typed-item.ts';
import type { ApiClient } from '../../lib/client/api-client.ts';
import type { Priority, RequestScheduler } from '../../lib/client/scheduler.ts';
import { type SearchTextStore, nothingKept } from '../../lib/storage/search-text-store.ts';
import type { Account } from './account.ts';

/** The server's largest page: a library of 10,000 takes 50 list requests (51 with the library's size). */
const PAGE = 200;
/** Deletions and changes made elsewhere are seen only by a pass over everything: one a day. */
const FULL_EVERY_MS = 24 * 60 * 60_000;

type Entries = Record<string, string>;
type Change = (entries: Entries) => void;

/**
 * Which pages are saved, kept locally (normalised URL → bookmark id) so that the
 * toolbar icon never sends the URLs a user visits to the server. Every change is
 * a read-modify-write of one stored record, so changes run one after another, and
 * those made while a sync pages through the library are replayed onto its result.
 */
export class SavedIndex {
  private queue: Promise<unknown> = Promise.resolve();
  private syncing: { changes: Change[]; done: Promise<number> } | null = null;
  /** The index in this background's memory: each save reads it, and a large library's is some 800 kB. */
  private record = rememberedItem(savedIndexItem);

  constructor(
    private account: Account,
    /** The request budget, which tells whether a full pass's next page would wait (and the pass could be cut there). */
    private budget: Pick<RequestScheduler, 'waitBefore'>,
    /** The address bar's search text kept from the index (entrypoints/background/index-memory.ts), made stale before each write. */
    readonly searchText: SearchTextStore = nothingKept(),
  ) {}

  async lookup(url: string): Promise<string | null> {
    const { entries } = await this.record.get();
    return entries[normaliseUrl(url)] ?? null;
  }

  /** The bookmark under its URL, and under no other (its URL may have changed). */
  remember(bookmark: Pick<Bookmark, 'id' | 'url'>): Promise<void> {
    return this.change((entries) => {
      for (const [key, id] of Object.entries(entries)) if (id === bookmark.id) delete entries[key];
      entries[normaliseUrl(bookmark.url)] = bookmark.id;
    });
  }

  /**
   * Bookmarks the server has just listed: those the index lacks (saved elsewhere, or imported, since its last
   * sync) are known from now on, so that what the lists show and what the index answers agree. A page already
   * known keeps its bookmark.
   */
  async learn(bookmarks: readonly Pick<Bookmark, 'id' | 'url'>[]): Promise<boolean> {
    const { entries } = await this.record.get();
    const unknown = bookmarks.filter((b) => entries[normaliseUrl(b.url)] === undefined);
    if (unknown.length === 0) return false;
    await this.change((now) => {
      for (const b of unknown) now[normaliseUrl(b.url)] ??= b.id;
    });
    return true;
  }

  forget(bookmark: Pick<Bookmark, 'id' | 'url'>): Promise<void> {
    return this.change((entries) => {
      const key = normaliseUrl(bookmark.url);
      if (entries[key] === bookmark.id) delete entries[key];
    });
  }

  /** After a bulk trash, which names ids only. */
  forgetIds(ids: readonly string[]): Promise<void> {
    const gone = new Set(ids);
    return this.change((entries) => {
      for (const [key, id] of Object.entries(entries)) if (gone.has(id)) delete entries[key];
    });
  }

  clear(): Promise<void> {
    if (this.syncing) this.syncing.changes.push((entries) => Object.keys(entries).forEach((key) => delete entries[key]));
    return this.serially(async () => {
      await Promise.all([this.write({ entries: {}, syncedAt: null }), fullPassItem.set(null)]);
    });
  }

  /**
   * Goes on with a full pass that a stop of the background cut short, from the page where it stopped: started
   * again from the first page, a large library's pass would spend the same minute's budget and be cut again.
   * Answers null when no pass was cut.
   */
  async resume(): Promise<number | null> {
    if (this.syncing) return this.syncing.done;
    const cut = await fullPassItem.get();
    return cut ? this.sync({ from: cut }) : null;
  }

  /**
   * Brings the index up to date. Usually incremental: newest first, stopping at
   * the first page that holds a bookmark already known. A newest-first pass cannot
   * see bookmarks added elsewhere with older dates (an import keeps its file's
   * dates) nor deletions made elsewhere, so the library's size (one stats request,
   * or `total` when the caller knows it) is compared with what the index accounts
   * for, and a difference makes it a full rebuild (oldest first, so that a new save
   * cannot shift pages). Also full when the index is empty, when asked, or once a
   * day. `added`: how many an import just added. `catchUp`: the user waits for it (*Save all tabs*), so its
   * few requests (the size and the newest pages) take the user's share of the budget rather than wait behind
   * background work; a full pass it turns into stays background work. Answers how many pages the index knows.
   */
  sync(options: { full?: boolean; now?: number; total?: number; added?: number; from?: FullPassState; catchUp?: boolean } = {}): Promise<number> {
    if (this.syncing) return this.syncing.done;
    const now = options.now ?? Date.now();
    const changes: Change[] = [];
    const done = (async () => {
      const stored = await this.record.get();
      const due = options.full === true || stored.syncedAt === null || now - (stored.fullSyncedAt ?? 0) >= FULL_EVERY_MS;
      // An import that says how many it added tells the library's size without a request.
      const total = options.total ?? (options.added === undefined || stored.syncedAt === null ? null : accountedFor(stored.entries, stored.shadowed ?? 0) + options.added);
      const progress: IndexSyncProgress = options.from ? { ...options.from.progress, running: true } : { full: due, fetched: 0, total, requests: 0, running: true };
      const fetched = await this.fetch(progress, stored, options.from, options.catchUp ? 'user' : 'background');
      return this.serially(async () => {
        const current = await this.record.get();
        const entries = progress.full ? fetched : merged(current.entries, fetched);
        const shadowed = progress.full ? progress.fetched - Object.keys(fetched).length : (current.shadowed ?? 0);
        for (const apply of changes) apply(entries);
        await this.write({ entries, syncedAt: now, fullSyncedAt: progress.full ? now : (current.fullSyncedAt ?? null), shadowed });
        return Object.keys(entries).length;
      });
    })().finally(() => (this.syncing = null));
    this.syncing = { changes, done };
    return done;
  }

  private async fetch(progress: IndexSyncProgress, stored: SavedIndexRecord, cut: FullPassState | undefined, priority: Priority): Promise<Entries> {
    try {
      const client = await this.account.client();
      if (cut) return await this.fetchPages(client, progress, {}, cut);
      if (progress.total === null) {
        progress.total = (await client.call('stats', { priority })).total;
        progress.requests++;
      }
      await indexSyncItem.set(progress);
      if (!progress.full) {
        const fetched = await this.fetchPages(client, progress, stored.entries, undefined, priority);
        if (accountedFor(merged(stored.entries, fetched), stored.shadowed ?? 0) === progress.total) return fetched;
        Object.assign(progress, { full: true, fetched: 0 });
      }
      return await this.fetchPages(client, progress, {});
    } catch (err) {
      // A pass that failed shows as stopped where it stopped, not as running for ever.
      await indexSyncItem.set({ ...progress, running: false });
      throw err;
    }
  }

  private async fetchPages(client: ApiClient, progress: IndexSyncProgress, known: Entries, cut?: FullPassState, priority: Priority = 'background'): Promise<Entries> {
    const { full } = progress;
    const entries: Entries = { ...cut?.entries };
    let cursor: string | undefined = cut?.cursor;
    let reachedKnown = false;
    do {
      const query = { limit: String(PAGE), sortBy: full ? 'oldest' : 'newest', ...(cursor && { cursor }) } as const;
      const page = await client.call('listBookmarks', { priority, query });
      for (const b of page.data) {
        const key = normaliseUrl(b.url);
        if (known[key] === b.id) reachedKnown = true;
        entries[key] = b.id;
      }
      progress.fetched += page.data.length;
      progress.requests++;
      cursor = page.cursor ?? undefined;
      await indexSyncItem.set({ ...progress, running: cursor !== undefined && (full || !reachedKnown) });
      // Kept for a resume only where the pass waits for the budget (where Firefox unloads an idle event page):
      // kept after every page, a 10,000-bookmark pass wrote its growing entries 50 times, some 20 MB.
      if (full && cursor !== undefined && (await this.budget.waitBefore({ priority })) > 0) {
        await fullPassItem.set({ cursor, entries, progress: { ...progress, running: true } });
      }
    } while (cursor && (full || !reachedKnown));
    if (full) await fullPassItem.set(null);
    return entries;
  }

  private change(apply: Change): Promise<void> {
    this.syncing?.changes.push(apply);
    return this.serially(async () => {
      const index = await this.record.get();
      const entries = { ...index.entries };
      apply(entries);
      await this.write({ ...index, entries });
    });
  }

  /** Every write of the index: a stop between the two leaves no kept text older than the index. */
  private async write(index: SavedIndexRecord): Promise<void> {
    await this.searchText.stale();
    await this.record.set(index);
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** How many bookmarks the library holds if the index is up to date. */
const accountedFor = (entries: Entries, shadowed: number) => new Set(Object.values(entries)).size + shadowed;

/** Newly fetched entries over the known ones; a bookmark fetched under a new URL loses its old key. */
function merged(known: Entries, fetched: Entries): Entries {
  const ids = new Set(Object.values(fetched));
  const entries: Entries = {};
  for (const [key, id] of Object.entries(known)) if (!ids.has(id)) entries[key] = id;
  return Object.assign(entries, fetched);
}
