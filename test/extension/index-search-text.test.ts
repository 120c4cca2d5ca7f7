// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IndexMemory } from '../../entrypoints/background/index-memory.ts';
import { matchingLines, searchTextOf } from '../../lib/storage/index-search-text.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';
import { SearchTextStore, type TextSlot, indexedDbSearchText } from '../../lib/storage/search-text-store.ts';
import { Account } from '../../entrypoints/background/account.ts';
import { SavedIndex } from '../../entrypoints/background/saved-index.ts';
import { RequestScheduler } from '../../lib/client/scheduler.ts';

/** A text kept as IndexedDB keeps it, in memory (Node has no IndexedDB; test/browser reads the real one), counting its uses. */
class MemorySlot implements TextSlot {
  reads = 0;
  puts = 0;
  removes = 0;
  constructor(public text: string | null = null) {}
  get() {
    this.reads++;
    return Promise.resolve(this.text);
  }
  put(text: string) {
    this.puts++;
    this.text = text;
    return Promise.resolve();
  }
  remove() {
    this.removes++;
    this.text = null;
    return Promise.resolve();
  }
}

/** The index written as its writer (SavedIndex) writes it: the kept text made stale first. */
async function writeIndex(kept: SearchTextStore, entries: Record<string, string>, syncedAt = 1): Promise<void> {
  await kept.stale();
  await savedIndexItem.set({ entries, syncedAt });
}

/** Short, so that the tests wait for the changes to settle in a few tens of ms. */
const SETTLE = 30;

const ENTRIES = {
  'moss.example/garden': 'bm_garden',
  'example.com/Moss/Wall': 'bm_wall',
  'fern.example/moss-and-more': 'bm_fern',
  'other.example/bm_garden': 'bm_other',
};

beforeEach(() => {
  fakeBrowser.reset();
});

describe('the index search text', () => {
  it('round trip: every page found by its key’s words in any case, its key and id as stored, in the index’s order', () => {
    const text = searchTextOf(ENTRIES);
    expect(matchingLines(text, ['moss'], 10)).toEqual([
      { key: 'moss.example/garden', id: 'bm_garden' },
      { key: 'example.com/Moss/Wall', id: 'bm_wall' },
      { key: 'fern.example/moss-and-more', id: 'bm_fern' },
    ]);
    expect(matchingLines(text, ['wall', 'moss'], 10)).toEqual([{ key: 'example.com/Moss/Wall', id: 'bm_wall' }]);
    expect(matchingLines(text, ['moss'], 2)).toHaveLength(2);
    expect(matchingLines(text, ['nothing'], 10)).toEqual([]);
    expect(matchingLines(searchTextOf({}), ['moss'], 10)).toEqual([]);
  });

  it('matches words in URL keys only, never in an id', () => {
    // "bm_garden" is the first page's id and the last page's path: only the last is found.
    expect(matchingLines(searchTextOf(ENTRIES), ['bm_garden'], 10)).toEqual([{ key: 'other.example/bm_garden', id: 'bm_other' }]);
    expect(matchingLines(searchTextOf(ENTRIES), ['bm_wall'], 10)).toEqual([]);
  });

  it('answers null for a line not of its form, so that the text is built again', () => {
    for (const corrupt of ['moss.example/garden', 'moss.example/garden\t', 'moss.example/garden\tbm_1\tmoss.example/garden\textra', 'Moss.example/moss\tbm_1', 'moss.example/x\tbm_1\tOTHER.example/x']) {
      expect(matchingLines(corrupt, ['moss'], 10), corrupt).toBeNull();
    }
  });
});

describe('the search text in IndexedDB', () => {
  it('opens the database when made (the background’s start), once: the keyword’s read then waits for no open', async () => {
    const opened: string[] = [];
    // An open that never answers: what counts is when it is asked for, and how often.
    const factory = { open: (name: string) => (opened.push(name), {}) } as unknown as IDBFactory;
    const kept = indexedDbSearchText(factory);
    expect(opened).toEqual(['shelf-index']);
    void kept.read();
    void kept.read();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(opened).toEqual(['shelf-index']);
  });

  it('where there is no IndexedDB, opens nothing and reads no text', async () => {
    expect(await indexedDbSearchText(undefined).read()).toBeNull();
  });
});

describe('IndexMemory with a kept search text', () => {
  it('keeps the text once the index’s changes settle, and a new background answers from it without reading the index', async () => {
    const slot = new MemorySlot();
    const kept = new SearchTextStore(slot);
    const first = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    await writeIndex(kept, ENTRIES);
    await vi.waitFor(() => expect(slot.text).toBe(searchTextOf(ENTRIES)));
    expect((await first.matching(['moss'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);

    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    get.mockClear();
    const restarted = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    expect(await restarted.matching(['wall'], 6)).toEqual([{ key: 'example.com/Moss/Wall', id: 'bm_wall' }]);
    expect(get).not.toHaveBeenCalled();
  });

  it('a burst of index changes writes the text once, after the last, and keystrokes in the burst see each change without reading storage', async () => {
    const slot = new MemorySlot();
    const kept = new SearchTextStore(slot);
    const memory = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    await writeIndex(kept, ENTRIES);
    expect((await memory.matching(['moss'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    get.mockClear();
    for (let i = 0; i < 5; i++) {
      await writeIndex(kept, { ...ENTRIES, [`moss.example/page-${i}`]: `bm_${i}` }, 2 + i);
      // The change's event reaches the memory after the write.
      await vi.waitFor(async () => expect((await memory.matching(['page'], 6)).map((m) => m.id)).toContain(`bm_${i}`));
    }
    expect(get).not.toHaveBeenCalled();
    expect(slot.puts).toBe(0);
    await vi.waitFor(() => expect(slot.puts).toBe(1));
    expect(slot.text).toBe(searchTextOf({ ...ENTRIES, 'moss.example/page-4': 'bm_4' }));
    // Settled: nothing more is written.
    await new Promise((resolve) => setTimeout(resolve, SETTLE * 3));
    expect(slot.puts).toBe(1);
  });

  it('an index change makes the kept text stale at once: a background stopped before the changes settle never answers from the older text', async () => {
    const slot = new MemorySlot();
    const kept = new SearchTextStore(slot);
    void new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    await writeIndex(kept, ENTRIES);
    await vi.waitFor(() => expect(slot.text).toBe(searchTextOf(ENTRIES)));

    // The index changes, and the background stops before its text is written (its memory is never used again).
    await writeIndex(kept, { 'moss.example/new': 'bm_new' }, 2);
    expect(slot.text).toBeNull();
    const restarted = new IndexMemory(fakeBrowser.storage.local, new SearchTextStore(slot), SETTLE);
    expect(await restarted.matching(['moss'], 6)).toEqual([{ key: 'moss.example/new', id: 'bm_new' }]);
    expect(slot.text).toBe(searchTextOf({ 'moss.example/new': 'bm_new' }));
  });

  it('the index’s writer makes the kept text stale before each write, and a burst of writes removes it once', async () => {
    const slot = new MemorySlot(searchTextOf(ENTRIES));
    const kept = new SearchTextStore(slot);
    const scheduler = new RequestScheduler();
    const index = new SavedIndex(new Account({ scheduler, hasHostPermission: async () => true }), scheduler, kept);
    const seen: (string | null)[] = [];
    // The kept text as it is when each write of the index is seen.
    fakeBrowser.storage.local.onChanged.addListener(() => seen.push(slot.text));
    await index.remember({ id: 'bm_new', url: 'https://moss.example/new' });
    await index.remember({ id: 'bm_two', url: 'https://moss.example/two' });
    await index.forget({ id: 'bm_new', url: 'https://moss.example/new' });
    expect(seen).toEqual([null, null, null]);
    expect(slot.removes).toBe(1);
  });

  it('migration: an index stored by an earlier version, with no text kept, is read once and its text kept', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const slot = new MemorySlot();
    const kept = new SearchTextStore(slot);
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    get.mockClear(); // a spy of a test before may still count
    const memory = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    expect((await memory.matching(['garden'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_other']);
    expect(get).toHaveBeenCalledTimes(1);
    expect(slot.text).toBe(searchTextOf(ENTRIES));

    get.mockClear();
    expect((await new IndexMemory(fakeBrowser.storage.local, kept, SETTLE).matching(['garden'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_other']);
    expect(get).not.toHaveBeenCalled();
  });

  it('a text built from a read that a write of the index overtook is not kept', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const slot = new MemorySlot();
    const kept = new SearchTextStore(slot);
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const local = fakeBrowser.storage.local;
    // The index read before the change, its answer held until the change is made.
    let read = () => undefined as void;
    const asked = new Promise<void>((resolve) => (read = resolve));
    const storage = {
      get: async (key: string) => {
        const stored = await local.get(key);
        read();
        await held;
        return stored;
      },
      onChanged: local.onChanged,
    };
    const memory = new IndexMemory(storage, kept, SETTLE);
    const answer = memory.matching(['moss'], 6);
    await asked;
    await writeIndex(kept, { 'moss.example/new': 'bm_new' }, 2);
    release();
    await answer;
    expect(slot.text).toBeNull();
    expect(await memory.matching(['moss'], 6)).toEqual([{ key: 'moss.example/new', id: 'bm_new' }]);
    await vi.waitFor(() => expect(slot.text).toBe(searchTextOf({ 'moss.example/new': 'bm_new' })));
  });

  it('a corrupt kept text is built again from the index and replaced: the keystroke still gets the right pages', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const slot = new MemorySlot('moss.example/garden\nnot a line of the form');
    const kept = new SearchTextStore(slot);
    const memory = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    expect((await memory.matching(['moss'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);
    expect(slot.text).toBe(searchTextOf(ENTRIES));
  });

  it('a kept text that does not hold the words answers no page and changes nothing', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const slot = new MemorySlot(searchTextOf(ENTRIES));
    const kept = new SearchTextStore(slot);
    const memory = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    expect(await memory.matching(['absent'], 6)).toEqual([]);
    expect(await memory.matching([], 6)).toEqual([]);
    expect(slot.text).toBe(searchTextOf(ENTRIES));
    expect((await savedIndexItem.get()).entries).toEqual(ENTRIES);
  });
});
