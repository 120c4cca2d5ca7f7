import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';
import { normaliseUrl } from '../../lib/url.ts';
import type { Account } from './account.ts';

const PAGE = 200;

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

  constructor(private account: Account) {}

  async lookup(url: string): Promise<string | null> {
    const { entries } = await savedIndexItem.get();
    return entries[normaliseUrl(url)] ?? null;
  }

  /** The bookmark under its URL, and under no other (its URL may have changed). */
  remember(bookmark: Pick<Bookmark, 'id' | 'url'>): Promise<void> {
    return this.change((entries) => {
      for (const [key, id] of Object.entries(entries)) if (id === bookmark.id) delete entries[key];
      entries[normaliseUrl(bookmark.url)] = bookmark.id;
    });
  }

  forget(bookmark: Pick<Bookmark, 'id' | 'url'>): Promise<void> {
    return this.change((entries) => {
      const key = normaliseUrl(bookmark.url);
      if (entries[key] === bookmark.id) delete entries[key];
    });
  }

  clear(): Promise<void> {
    if (this.syncing) this.syncing.changes.push((entries) => Object.keys(entries).forEach((key) => delete entries[key]));
    return this.serially(() => savedIndexItem.set({ entries: {}, syncedAt: null }));
  }

  /** Rebuilds the index from the whole library: 200 bookmarks a request, oldest first so a new save cannot shift pages. */
  sync(now = Date.now()): Promise<number> {
    if (this.syncing) return this.syncing.done;
    const changes: Change[] = [];
    const done = (async () => {
      const entries = await this.fetchAll();
      return this.serially(async () => {
        for (const apply of changes) apply(entries);
        await savedIndexItem.set({ entries, syncedAt: now });
        return Object.keys(entries).length;
      });
    })().finally(() => (this.syncing = null));
    this.syncing = { changes, done };
    return done;
  }

  private async fetchAll(): Promise<Entries> {
    const client = await this.account.client();
    const entries: Entries = {};
    let cursor: string | undefined;
    do {
      const page = await client.call('listBookmarks', { priority: 'background', query: { limit: String(PAGE), sortBy: 'oldest', ...(cursor && { cursor }) } });
      for (const b of page.data) entries[normaliseUrl(b.url)] = b.id;
      cursor = page.cursor ?? undefined;
    } while (cursor);
    return entries;
  }

  private change(apply: Change): Promise<void> {
    this.syncing?.changes.push(apply);
    return this.serially(async () => {
      const index = await savedIndexItem.get();
      const entries = { ...index.entries };
      apply(entries);
      await savedIndexItem.set({ ...index, entries });
    });
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
