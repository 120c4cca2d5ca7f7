// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IndexMemory } from '../../entrypoints/background/index-memory.ts';
import { matchingLines, searchTextOf } from '../../lib/storage/index-search-text.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';
import type { SearchTextStore } from '../../lib/storage/search-text-store.ts';

/** A store as IndexedDB keeps it, in memory (Node has no IndexedDB; test/browser reads the real one). */
function keptText(initial: string | null = null): SearchTextStore & { text: string | null; reads: number } {
  return {
    text: initial,
    reads: 0,
    read() {
      this.reads++;
      return Promise.resolve(this.text);
    },
    write(text) {
      this.text = text;
      return Promise.resolve();
    },
  };
}

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

describe('IndexMemory with a kept search text', () => {
  it('keeps the text of every index change, and a new background answers from it without reading the index', async () => {
    const kept = keptText();
    const first = new IndexMemory(fakeBrowser.storage.local, kept);
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    await vi.waitFor(() => expect(kept.text).toBe(searchTextOf(ENTRIES)));
    expect((await first.matching(['moss'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);

    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    const restarted = new IndexMemory(fakeBrowser.storage.local, kept);
    expect(await restarted.matching(['wall'], 6)).toEqual([{ key: 'example.com/Moss/Wall', id: 'bm_wall' }]);
    expect(get).not.toHaveBeenCalled();
  });

  it('migration: an index stored by an earlier version, with no text kept, is read once and its text kept', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const kept = keptText();
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    const memory = new IndexMemory(fakeBrowser.storage.local, kept);
    expect((await memory.matching(['garden'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_other']);
    expect(get).toHaveBeenCalledTimes(1);
    expect(kept.text).toBe(searchTextOf(ENTRIES));

    get.mockClear();
    expect((await new IndexMemory(fakeBrowser.storage.local, kept).matching(['garden'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_other']);
    expect(get).not.toHaveBeenCalled();
  });

  it('a text built from a read that a change of the index overtook is not kept over the change’s', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const kept = keptText();
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
    const memory = new IndexMemory(storage, kept);
    const answer = memory.matching(['moss'], 6);
    await asked;
    await savedIndexItem.set({ entries: { 'moss.example/new': 'bm_new' }, syncedAt: 2 });
    await vi.waitFor(() => expect(kept.text).toBe(searchTextOf({ 'moss.example/new': 'bm_new' })));
    release();
    await answer;
    expect(kept.text).toBe(searchTextOf({ 'moss.example/new': 'bm_new' }));
    expect(await memory.matching(['moss'], 6)).toEqual([{ key: 'moss.example/new', id: 'bm_new' }]);
  });

  it('a corrupt kept text is built again from the index and replaced: the keystroke still gets the right pages', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const kept = keptText('moss.example/garden\nnot a line of the form');
    const memory = new IndexMemory(fakeBrowser.storage.local, kept);
    expect((await memory.matching(['moss'], 6)).map((m) => m.id)).toEqual(['bm_garden', 'bm_wall', 'bm_fern']);
    expect(kept.text).toBe(searchTextOf(ENTRIES));
  });

  it('a kept text that does not hold the words answers no page and changes nothing', async () => {
    await savedIndexItem.set({ entries: ENTRIES, syncedAt: 1 });
    const kept = keptText(searchTextOf(ENTRIES));
    const memory = new IndexMemory(fakeBrowser.storage.local, kept);
    expect(await memory.matching(['absent'], 6)).toEqual([]);
    expect(await memory.matching([], 6)).toEqual([]);
    expect(kept.text).toBe(searchTextOf(ENTRIES));
    expect((await savedIndexItem.get()).entries).toEqual(ENTRIES);
  });
});
