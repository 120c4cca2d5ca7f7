import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { collectionPath, treeRows } from '../../components/collection-tree.ts';
import { addTags, parseTagInput, suggestTags } from '../../components/tag-suggestions.ts';
import { DRAFT_WRITE_DELAY_MS, DraftBook } from '../../entrypoints/popup/drafts.ts';
import { type EditorState, NOTHING_KEPT, editorReducer, initialState } from '../../entrypoints/popup/editor-state.ts';
import { createBody, type FormValues, patchOf, valuesOf } from '../../entrypoints/popup/form.ts';
import { tabIdFrom } from '../../entrypoints/popup/startup.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import { type Draft, draftsItem } from '../../lib/storage/items.ts';
import { savedBookmark } from './support/fixtures.ts';

const tag = (name: string, count = 1): Tag => ({ id: `tag_${name}`, name, color: null, parentId: null, count, createdAt: '2025-01-01T00:00:00.000Z' });
const collection = (id: string, name: string, parentId: string | null, order = 0): Collection => ({
  id,
  name,
  icon: '',
  color: '',
  parentId,
  depth: 0,
  order,
  bookmarkCount: 0,
  notes: '',
  branding: null,
  shareSlug: null,
  isShared: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  deletedAt: null,
});
const bookmark = (fields: Partial<Bookmark> = {}): Bookmark => savedBookmark({ note: 'note', tags: ['b', 'a'], collectionId: 'col_work', ...fields });

describe('tag suggestions', () => {
  const tags = [tag('dev', 1), tag('dev/js', 9), tag('dev/rust', 3), tag('javascript-old', 20), tag('recipes', 5)];
  const names = (query: string, chosen: string[] = []) => suggestTags(tags, query, chosen).map((t) => t.name);

  it('matches any level of a hierarchical name, the closest match first', () => {
    expect(names('js')).toEqual(['dev/js']);
    expect(names('dev')).toEqual(['dev', 'dev/js', 'dev/rust']);
    expect(names('dev › j')).toEqual(['dev/js']);
    expect(names('DEV/RU')).toEqual(['dev/rust']);
    expect(names('java')).toEqual(['javascript-old']);
    // The start of the name, then of a level, then anywhere (a more used tag does not jump ahead).
    expect(names('r')).toEqual(['recipes', 'dev/rust', 'javascript-old']);
  });

  it('leaves out chosen tags whatever their case, and lists the most used for an empty query', () => {
    expect(names('dev', ['DEV/JS'])).toEqual(['dev', 'dev/rust']);
    expect(names('')).toEqual(['javascript-old', 'dev/js', 'recipes', 'dev/rust', 'dev']);
  });

  it('reads typed names by the contract’s rules, and reuses the user’s spelling', () => {
    expect(parseTagInput('  Dev  ›  Java  Script ')).toBe('Dev/Java Script');
    expect(parseTagInput('a//b')).toBeNull();
    expect(parseTagInput('   ')).toBeNull();
    expect(addTags(tags, ['recipes'], ['DEV/JS', 'Recipes', 'new one', 'x//y'])).toEqual(['recipes', 'dev/js', 'new one']);
    expect(addTags(null, [], ['Dev'])).toEqual(['Dev']);
  });
});

describe('collection tree', () => {
  const collections = [
    collection('col_shelf', 'Shelf', 'col_projects'),
    collection('col_home', 'Home', null, 1),
    collection('col_work', 'Work', null, 0),
    collection('col_projects', 'Projects', 'col_work'),
    collection('col_orphan', 'Orphan', 'col_gone', 2),
  ];
  const rows = (query: string) => treeRows(collections, query).map((r) => [r.collection?.name ?? 'Unsorted', r.depth, r.match]);

  it('lists Unsorted, then the tree in the user’s order, children under their parent', () => {
    expect(rows('')).toEqual([
      ['Unsorted', 0, true],
      ['Work', 0, true],
      ['Projects', 1, true],
      ['Shelf', 2, true],
      ['Home', 0, true],
      ['Orphan', 0, true],
    ]);
  });

  it('keeps the ancestors of a match, marked as no match', () => {
    expect(rows('SHEL')).toEqual([
      ['Work', 0, false],
      ['Projects', 1, false],
      ['Shelf', 2, true],
    ]);
    expect(rows('unso')).toEqual([['Unsorted', 0, true]]);
    expect(rows('nothing')).toEqual([]);
  });

  it('survives a cycle in the data and names a collection by its path', () => {
    const cyclic = [collection('col_a', 'A', 'col_b'), collection('col_b', 'B', 'col_a')];
    expect(treeRows(cyclic, '').length).toBeLessThanOrEqual(3);
    expect(collectionPath(collections, 'col_shelf')).toBe('Work › Projects › Shelf');
    expect(collectionPath(collections, 'col_unknown')).toBeNull();
    expect(collectionPath(cyclic, 'col_a')?.split(' › ').length).toBeLessThanOrEqual(3);
  });
});

describe('requests', () => {
  const values: FormValues = { title: ' Title ', tags: ['a'], collectionId: null, note: '', isFavorite: false };

  it('saves without a description, and without the title when it is empty, so that the server detects them', () => {
    expect(createBody('https://example.com/', values)).toEqual({ url: 'https://example.com/', title: 'Title', tags: ['a'], collectionId: null, note: '', isFavorite: false });
    expect(createBody('https://example.com/', { ...values, title: '  ' })).not.toHaveProperty('title');
  });

  it('updates only what differs from the saved bookmark', () => {
    const saved = bookmark();
    const same: FormValues = { title: 'Saved', tags: ['A', 'b'], collectionId: 'col_work', note: 'note', isFavorite: false };
    expect(patchOf(same, saved)).toEqual({});
    expect(patchOf({ ...same, title: '' }, saved)).toEqual({});
    expect(patchOf({ ...same, collectionId: null, isFavorite: true, tags: ['a'] }, saved)).toEqual({ collectionId: null, isFavorite: true, tags: ['a'] });
    expect(patchOf({ ...same, title: 'New', note: '' }, saved)).toEqual({ title: 'New', note: '' });
  });

  it('acts on the tab named in the page address', () => {
    expect(tabIdFrom('?tabId=123')).toBe(123);
    expect(tabIdFrom('?tabId=abc')).toBeUndefined();
    expect(tabIdFrom('?tabId=-1')).toBeUndefined();
    expect(tabIdFrom('')).toBeUndefined();
  });
});

describe('editor state', () => {
  const start = (draft: FormValues | null = null): EditorState => initialState({ title: 'Tab title', lastCollectionId: 'col_last', draft, draftOver: null });

  it('shows a saved bookmark found by the lookup, keeping what the user already typed', () => {
    const found = bookmark();
    const untouched = editorReducer(start(), { type: 'lookedUp', bookmark: found });
    expect(untouched.mode).toEqual({ kind: 'edit', bookmark: found });
    expect(untouched.values.title).toBe('Saved');

    const typed = editorReducer(start(), { type: 'change', values: { title: 'Mine' } });
    expect(editorReducer(typed, { type: 'lookedUp', bookmark: found }).values.title).toBe('Mine');
  });

  it('makes what the user typed before the lookup answered on the saved bookmark, leaving the rest as saved', () => {
    const found = bookmark({ title: 'Saved', tags: ['a', 'b'], collectionId: 'col_saved', note: 'kept note', isFavorite: false });
    const fresh = initialState({ title: 'Tab title', ...NOTHING_KEPT, lastCollectionId: 'col_last' });
    const typed = editorReducer(fresh, { type: 'change', values: { tags: ['new'], isFavorite: true } });
    const shown = editorReducer(typed, { type: 'lookedUp', bookmark: found });
    // The tab's title and the last collection were only the form's defaults: the saved ones stay.
    expect(shown.values).toEqual({ title: 'Saved', tags: ['a', 'b', 'new'], collectionId: 'col_saved', note: 'kept note', isFavorite: true });
    expect(shown.edited).toBe(true);
    const retitled = editorReducer(editorReducer(fresh, { type: 'change', values: { title: 'My title' } }), { type: 'lookedUp', bookmark: found });
    expect(retitled.values).toEqual({ ...valuesOf(found), title: 'My title' });
    // Typing that changes nothing of the saved bookmark leaves nothing to update.
    const same = editorReducer(editorReducer(fresh, { type: 'change', values: { tags: ['A'] } }), { type: 'lookedUp', bookmark: found });
    expect(same.values).toEqual(valuesOf(found));
    expect(same.edited).toBe(false);
  });

  it('never takes the lookup over a save under way', () => {
    const found = bookmark();

    const saving = editorReducer(start(), { type: 'start', busy: 'save' });
    expect(editorReducer(saving, { type: 'lookedUp', bookmark: found })).toBe(saving);
  });

  it('keeps what was typed while a save was under way', () => {
    const saving = editorReducer(start(), { type: 'start', busy: 'save' });
    const typedOn = editorReducer(saving, { type: 'change', values: { note: 'more' } });
    const saved = editorReducer(typedOn, { type: 'saved', bookmark: bookmark({ note: '' }), status: 'Saved' });
    expect(saved.values.note).toBe('more');
    expect(saved.edited).toBe(true);
    const clean = editorReducer(saving, { type: 'saved', bookmark: bookmark(), status: 'Saved' });
    expect(clean.values.note).toBe('note');
    expect(clean.edited).toBe(false);
    expect(clean.saves).toBe(1);
  });

  it('forgets a last used collection that no longer exists, but never a saved bookmark’s', () => {
    const loaded = editorReducer(start(), { type: 'collectionsLoaded', collections: [collection('col_other', 'Other', null)] });
    expect(loaded.values.collectionId).toBeNull();
    const editing = editorReducer(start(), { type: 'lookedUp', bookmark: bookmark({ collectionId: 'col_new' }) });
    expect(editorReducer(editing, { type: 'collectionsLoaded', collections: [] }).values.collectionId).toBe('col_new');
  });

  it('takes what was kept for the page when storage answers after the first frame, unless the user or a save came first', () => {
    const first = initialState({ title: 'Tab title', ...NOTHING_KEPT });
    const draft: FormValues = { title: 'Draft', tags: ['t'], collectionId: 'col_draft', note: 'n', isFavorite: true };
    const kept = (d: FormValues | null, over: FormValues | null = null) => ({ type: 'kept', kept: { draft: d, draftOver: over, lastCollectionId: 'col_last' } }) as const;

    const restored = editorReducer(first, kept(draft));
    expect(restored.values).toEqual(draft);
    expect(restored.edited).toBe(true);
    expect(editorReducer(first, kept(null)).values).toEqual({ ...first.values, collectionId: 'col_last' });
    expect(editorReducer(first, kept(null)).edited).toBe(false);

    const typed = editorReducer(first, { type: 'change', values: { note: 'mine' } });
    expect(editorReducer(typed, kept(draft))).toBe(typed);
    const saving = editorReducer(first, { type: 'start', busy: 'save' });
    expect(editorReducer(saving, kept(draft))).toBe(saving);

    // As in the first frame: a deleted last collection is forgotten; on a saved page the last collection does not apply.
    const loaded = editorReducer(first, { type: 'collectionsLoaded', collections: [collection('col_other', 'Other', null)] });
    expect(editorReducer(loaded, kept(null)).values.collectionId).toBeNull();
    const saved = bookmark();
    const editing = editorReducer(first, { type: 'lookedUp', bookmark: saved });
    expect(editorReducer(editing, kept(null))).toBe(editing);
    // A draft typed over the bookmark as it still is comes back whole.
    const typedOverThis = editorReducer(editing, kept(draft, valuesOf(saved)));
    expect(typedOverThis.values).toEqual(draft);
    expect(typedOverThis.edited).toBe(true);
  });

  it('restores a draft on a bookmark that changed since only as the draft’s own edits', () => {
    const over: FormValues = { title: 'Old title', tags: ['a', 'gone'], collectionId: 'col_work', note: 'note', isFavorite: false };
    // Typed then: a note, the tag "gone" removed, "mine" added. Since: tags "b" and "elsewhere" added on another device, a new title.
    const draft: FormValues = { ...over, tags: ['a', 'mine'], note: 'my note' };
    const now = bookmark({ title: 'New title', tags: ['a', 'gone', 'elsewhere'], collectionId: 'col_work' });
    const first = initialState({ title: 'Tab title', ...NOTHING_KEPT });
    const expected = { title: 'New title', tags: ['a', 'elsewhere', 'mine'], collectionId: 'col_work', note: 'my note', isFavorite: false };
    const kept = { type: 'kept', kept: { draft, draftOver: over, lastCollectionId: null } } as const;
    // Storage first, then the look-up; and the other way round.
    expect(editorReducer(editorReducer(first, kept), { type: 'lookedUp', bookmark: now }).values).toEqual(expected);
    expect(editorReducer(editorReducer(first, { type: 'lookedUp', bookmark: now }), kept).values).toEqual(expected);
    // A draft typed into a form for a new page, restored on a page saved meanwhile (an import): its additions only.
    const newPageDraft: FormValues = { title: 'Tab title', tags: ['mine'], collectionId: 'col_last', note: '', isFavorite: true };
    const restored = editorReducer(editorReducer(first, { type: 'lookedUp', bookmark: now }), { type: 'kept', kept: { draft: newPageDraft, draftOver: null, lastCollectionId: null } });
    expect(restored.values).toEqual({ ...valuesOf(now), tags: ['a', 'gone', 'elsewhere', 'mine'], isFavorite: true });
  });

  it('turns a tag still being typed into a chip when saving', () => {
    const typing = editorReducer(start(), { type: 'typeTag', text: ' half ' });
    const saving = editorReducer(typing, { type: 'start', busy: 'save' });
    expect(saving.values.tags).toEqual(['half']);
    expect(saving.tagText).toBe('');
  });
});

describe('drafts', () => {
  const draft = (title: string): Draft => ({ title, tags: [], collectionId: null, note: '', isFavorite: false, updatedAt: Date.now() });

  beforeEach(() => {
    fakeBrowser.reset();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => vi.useRealTimers());

  it('writes after a pause in typing, once, under the normalised URL', async () => {
    const book = await DraftBook.open();
    const set = vi.spyOn(draftsItem, 'set');
    book.put('https://www.example.com/a/?utm_source=x', draft('T'));
    book.put('https://www.example.com/a/?utm_source=x', draft('Ti'));
    expect(set).not.toHaveBeenCalled();
    expect(book.get('http://example.com/a')?.title).toBe('Ti');
    await vi.advanceTimersByTimeAsync(DRAFT_WRITE_DELAY_MS);
    expect(set).toHaveBeenCalledOnce();
    expect(Object.keys(await draftsItem.get())).toEqual(['example.com/a']);
  });

  it('writes at once when the popup closes, and forgets a saved page’s draft', async () => {
    const book = await DraftBook.open();
    book.put('https://example.com/a', draft('Closing'));
    book.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect((await draftsItem.get())['example.com/a']?.title).toBe('Closing');
    await book.remove('https://example.com/a');
    expect(await draftsItem.get()).toEqual({});
  });
});
