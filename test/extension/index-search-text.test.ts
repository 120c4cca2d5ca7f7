// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { type IndexMatch, IndexMemory } from '../../entrypoints/background/index-memory.ts';
import { type SearchText, lineAt, lineCount, lineNumberAt, matchingLines, searchTextOf } from '../../lib/storage/index-search-text.ts';
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
  /** Settles the ids' read: at once unless a test holds it back. */
  idsLanded: Promise<void> = Promise.resolve();
  constructor(public text: SearchText | null = null) {}
  get() {
    this.reads++;
    const text = this.text;
    return { keys: Promise.resolve(text?.keys ?? null), ids: this.idsLanded.then(() => text?.ids ?? null) };
  }
  put(text: SearchText) {
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

/** Matches with their ids looked up, as Enter looks them up. */
const withIds = (matches: IndexMatch[]) => Promise.all(matches.map(async (m) => ({ key: m.key, id: await m.id() })));
const idsOf = async (matches: Promise<IndexMatch[]>) => (await withIds(await matches)).map((m) => m.id);
/** Key matches with the ids of their lines. */
const linesWithIds = (text: SearchText, words: string[], max: number) =>
  matchingLines(text.keys, words, max)?.map(({ key, start }) => ({ key, id: lineAt(text.ids, lineNumberAt(text.keys, start)) }));

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
    expect(matchingLines(text.keys, ['moss'], 10)?.map((m) => m.key)).toEqual(['moss.example/garden', 'example.com/Moss/Wall', 'fern.example/moss-and-more']);
    expect(linesWithIds(text, ['moss'], 10)?.map((m) => m.id)).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);
    expect(linesWithIds(text, ['wall', 'moss'], 10)).toEqual([{ key: 'example.com/Moss/Wall', id: 'bm_wall' }]);
    expect(linesWithIds(text, ['garden'], 10)).toEqual([
      { key: 'moss.example/garden', id: 'bm_garden' },
      { key: 'other.example/bm_garden', id: 'bm_other' },
    ]);
    expect(matchingLines(text.keys, ['moss'], 2)).toHaveLength(2);
    expect(matchingLines(text.keys, ['nothing'], 10)).toEqual([]);
    expect(matchingLines(searchTextOf({}).keys, ['moss'], 10)).toEqual([]);
  });

  it('keeps the ids apart from the keys, a line each in the same order: a word is matched in URL keys only, never in an id', () => {
    const text = searchTextOf(ENTRIES);
    expect(text.ids).toBe('bm_garden\nbm_wall\nbm_fern\nbm_other');
    expect(text.keys).toBe('moss.example/garden\nexample.com/moss/wall\texample.com/Moss/Wall\nfern.example/moss-and-more\nother.example/bm_garden');
    // "bm_garden" is the first page's id and the last page's path: only the last is found.
    expect(linesWithIds(text, ['bm_garden'], 10)).toEqual([{ key: 'other.example/bm_garden', id: 'bm_other' }]);
    expect(matchingLines(text.keys, ['bm_wall'], 10)).toEqual([]);
  });

  it('numbers the lines of every match, however far apart, and reads a line by its number', () => {
    const entries = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`site-${i}.example/${i % 100 === 7 ? 'moss' : 'page'}`, `bm_${i}`]));
    const text = searchTextOf(entries);
    expect(matchingLines(text.keys, ['moss'], 10)?.map((m) => lineNumberAt(text.keys, m.start))).toEqual([7, 107, 207, 307, 407]);
    expect(lineNumberAt(text.keys, 0)).toBe(0);
    expect(linesWithIds(text, ['moss'], 10)?.map((m) => m.id)).toEqual(['bm_7', 'bm_107', 'bm_207', 'bm_307', 'bm_407']);
    expect(lineCount(text.keys)).toBe(500);
    expect(lineCount(text.ids)).toBe(500);
    expect(lineAt(text.ids, 0)).toBe('bm_0');
    expect(lineAt(text.ids, 499)).toBe('bm_499');
    expect(lineAt(text.ids, 500)).toBeNull();
    expect(lineAt('', 0)).toBe('');
  });

  it('answers null for a line not of its form, so that the text is built again', () => {
    for (const corrupt of ['moss.example/garden\t', 'moss.example/garden\tmoss.example/garden\textra', 'Moss.example/moss', 'moss.example/x\tOTHER.example/x', 'moss.example/x\tbm_1\tmoss.example/x']) {
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
    const read = indexedDbSearchText(undefined).read();
    expect([await read.keys, await read.ids]).toEqual([null, null]);
  });
});

describe('IndexMemory with a kept search text', () => {
  it('keeps the text once the index’s changes settle, and a new background answers from it without reading the index', async () => {
    const slot = new MemorySlot();
    const kept = new SearchTextStore(slot);
    const first = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    await writeIndex(kept, ENTRIES);
    await vi.waitFor(() => expect(slot.text).toEqual(searchTextOf(ENTRIES)));
    expect(await idsOf(first.matching(['moss'], 6))).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);

    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    get.mockClear();
    const restarted = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    expect(await withIds(await restarted.matching(['wall'], 6))).toEqual([{ key: 'example.com/Moss/Wall', id: 'bm_wall' }]);
    expect(get).not.toHaveBeenCalled();
  });

  it('a burst of index changes writes the text once, after the last, and keystrokes in the burst see each change without reading storage', async () => {
    const slot = new MemorySlot();
    const kept = new SearchTextStore(slot);
    const memory = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    await writeIndex(kept, ENTRIES);
    expect(await idsOf(memory.matching(['moss'], 6))).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    get.mockClear();
    for (let i = 0; i < 5; i++) {
      await writeIndex(kept, { ...ENTRIES, [`moss.example/page-${i}`]: `bm_${i}` }, 2 + i);
      // The change's event reaches the memory after the write.
      await vi.waitFor(async () => expect(await idsOf(memory.matching(['page'], 6))).toContain(`bm_${i}`));
    }
    expect(get).not.toHaveBeenCalled();
    expect(slot.puts).toBe(0);
    await vi.waitFor(() => expect(slot.puts).toBe(1));
    expect(slot.text).toEqual(searchTextOf({ ...ENTRIES, 'moss.example/page-4': 'bm_4' }));
    // Settled: nothing more is written.
    await new Promise((resolve) => setTimeout(resolve, SETTLE * 3));
    expect(slot.puts).toBe(1);
  });

  it('an index change makes the kept text stale at once: a background stopped before the changes settle never answers from the older text', async () => {
    const slot = new MemorySlot();
    const kept = new SearchTextStore(slot);
    void new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    await writeIndex(kept, ENTRIES);
    await vi.waitFor(() => expect(slot.text).toEqual(searchTextOf(ENTRIES)));

    // The index changes, and the background stops before its text is written (its memory is never used again).
    await writeIndex(kept, { 'moss.example/new': 'bm_new' }, 2);
    expect(slot.text).toBeNull();
    const restarted = new IndexMemory(fakeBrowser.storage.local, new SearchTextStore(slot), SETTLE);
    expect(await withIds(await restarted.matching(['moss'], 6))).toEqual([{ key: 'moss.example/new', id: 'bm_new' }]);
    expect(slot.text).toEqual(searchTextOf({ 'moss.example/new': 'bm_new' }));
  });

  it('the index’s writer makes the kept text stale before each write, and a burst of writes removes it once', async () => {
    const slot = new MemorySlot(searchTextOf(ENTRIES));
    const kept = new SearchTextStore(slot);
    const scheduler = new RequestScheduler();
    const index = new SavedIndex(new Account({ scheduler, hasHostPermission: async () => true }), scheduler, kept);
    const seen: (SearchText | null)[] = [];
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
    expect(await idsOf(memory.matching(['garden'], 6))).toEqual(['bm_garden', 'bm_other']);
    expect(get).toHaveBeenCalledTimes(1);
    expect(slot.text).toEqual(searchTextOf(ENTRIES));

    get.mockClear();
    expect(await idsOf(new IndexMemory(fakeBrowser.storage.local, kept, SETTLE).matching(['garden'], 6))).toEqual(['bm_garden', 'bm_other']);
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
    expect(await withIds(await memory.matching(['moss'], 6))).toEqual([{ key: 'moss.example/new', id: 'bm_new' }]);
    await vi.waitFor(() => expect(slot.text).toEqual(searchTextOf({ 'moss.example/new': 'bm_new' })));
  });

  it('a corrupt kept text is built again from the index and replaced: the keystroke still gets the right pages', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const slot = new MemorySlot({ keys: 'moss.example/Garden\nmoss.example/wall', ids: 'bm_garden\nbm_wall' });
    const kept = new SearchTextStore(slot);
    const memory = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    expect(await idsOf(memory.matching(['moss'], 6))).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);
    expect(slot.text).toEqual(searchTextOf(ENTRIES));
  });

  it('a kept text that does not hold the words answers no page and changes nothing', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const slot = new MemorySlot(searchTextOf(ENTRIES));
    const kept = new SearchTextStore(slot);
    const memory = new IndexMemory(fakeBrowser.storage.local, kept, SETTLE);
    expect(await memory.matching(['absent'], 6)).toEqual([]);
    expect(slot.reads).toBe(1);
    expect(await memory.matching([], 6)).toEqual([]);
    expect(slot.text).toEqual(searchTextOf(ENTRIES));
    expect((await savedIndexItem.get()).entries).toEqual(ENTRIES);
  });

  it('answers a keystroke from the kept keys before their ids have landed; Enter’s id comes with them', async () => {
    const slot = new MemorySlot(searchTextOf(ENTRIES));
    let land = () => undefined as void;
    slot.idsLanded = new Promise<void>((resolve) => (land = resolve));
    const memory = new IndexMemory(fakeBrowser.storage.local, new SearchTextStore(slot), SETTLE);
    const found = await memory.matching(['wall'], 6);
    expect(found.map((m) => m.key)).toEqual(['example.com/Moss/Wall']);
    let id: string | null | undefined;
    void found[0]!.id().then((answer) => (id = answer));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(id).toBeUndefined();
    land();
    await vi.waitFor(() => expect(id).toBe('bm_wall'));
    expect(slot.reads).toBe(1);
  });

  it('kept keys whose ids are missing or of another count: their matches name no id, and the text is built again from the index', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    for (const ids of ['', 'bm_garden\nbm_wall', 'bm_garden\nbm_wall\nbm_fern\nbm_other\nbm_extra']) {
      const { keys } = searchTextOf(ENTRIES);
      const slot = new MemorySlot({ keys, ids });
      const memory = new IndexMemory(fakeBrowser.storage.local, new SearchTextStore(slot), SETTLE);
      expect(await withIds(await memory.matching(['wall'], 6)), ids).toEqual([{ key: 'example.com/Moss/Wall', id: null }]);
      await vi.waitFor(() => expect(slot.text).toEqual(searchTextOf(ENTRIES)));
      expect(await withIds(await memory.matching(['wall'], 6)), ids).toEqual([{ key: 'example.com/Moss/Wall', id: 'bm_wall' }]);
    }
  });

  it('keys kept with no ids at all are built again before the keystroke is answered', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const slot = new MemorySlot({ keys: 'moss.example/stale', ids: 'bm_stale' });
    slot.get = () => ({ keys: Promise.resolve(null), ids: Promise.resolve('bm_stale') });
    const memory = new IndexMemory(fakeBrowser.storage.local, new SearchTextStore(slot), SETTLE);
    expect(await withIds(await memory.matching(['wall'], 6))).toEqual([{ key: 'example.com/Moss/Wall', id: 'bm_wall' }]);
    expect(slot.text).toEqual(searchTextOf(ENTRIES));
  });
});
