import { describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { parseQuery } from '../../lib/search/parse.ts';
import type { Condition } from '../../lib/api/smart-folders.ts';
import { type LibraryNames, holdsEveryMatch, planSearch } from '../../lib/search/plan.ts';
import { rankResults } from '../../lib/search/rank.ts';
import { savedBookmark } from '../extension/support/fixtures.ts';

let n = 0;
const bookmark = (fields: Partial<Bookmark>): Bookmark => savedBookmark({ id: `b${++n}`, url: `https://example.com/${n}`, title: '', ...fields });
const titles = (list: Bookmark[]) => list.map((b) => b.title);

describe('ranking', () => {
  it('puts whole words before parts of words, and the title before the rest: "rust" ranks Rust above Trust', () => {
    const list = [
      bookmark({ title: 'In trust we trust' }),
      bookmark({ title: 'Notes', description: 'about Rust' }),
      bookmark({ title: 'Crusty bread' }),
      bookmark({ title: 'The Rust book' }),
      bookmark({ title: 'Other', url: 'https://rustacean.net/' }),
    ];
    expect(titles(rankResults(list, ['rust']))).toEqual(['The Rust book', 'In trust we trust', 'Crusty bread', 'Notes', 'Other']);
  });

  it('adds the terms up and keeps the API order (newest first) between equals', () => {
    const list = [bookmark({ title: 'rust' }), bookmark({ title: 'async rust' }), bookmark({ title: 'rust 2' })];
    expect(titles(rankResults(list, ['rust', 'async']))).toEqual(['async rust', 'rust', 'rust 2']);
    expect(titles(rankResults(list, []))).toEqual(['rust', 'async rust', 'rust 2']);
  });

  it('reads whole words in any script and takes the term literally (no pattern characters)', () => {
    const list = [bookmark({ title: 'Привет мир' }), bookmark({ title: 'мирный' }), bookmark({ title: 'c++ guide' }), bookmark({ title: 'cxx' })];
    expect(titles(rankResults(list, ['мир']))[0]).toBe('Привет мир');
    expect(titles(rankResults(list, ['c++']))[0]).toBe('c++ guide');
  });
});

describe('query plan', () => {
  const library = {
    collections: [
      { id: 'small', name: 'Reading', bookmarkCount: 30 },
      { id: 'big', name: 'Archive', bookmarkCount: 5000 },
      { id: 'twin1', name: 'Twin', bookmarkCount: 1 },
      { id: 'twin2', name: 'twin', bookmarkCount: 1 },
    ],
    tags: [
      { id: 't1', name: 'dev', count: 20 },
      { id: 't2', name: 'dev/rust', count: 10 },
      { id: 't3', name: 'devops', count: 5 },
      { id: 't4', name: 'huge', count: 900 },
    ],
    smartFolders: [],
  };
  const plan = (text: string, scope = { kind: 'all' } as const) => planSearch(parseQuery(text), scope, library);

  it('searches the longest word with the API, and checks every other term on the client', () => {
    const p = plan('go rustacean -old');
    expect(p.source).toEqual({ kind: 'search', q: 'rustacean' });
    expect(p.accepts(bookmark({ title: 'go rustacean' }))).toBe(true);
    expect(p.accepts(bookmark({ title: 'rustacean' }))).toBe(false);
    expect(p.accepts(bookmark({ title: 'go rustacean', description: 'OLD' }))).toBe(false);
  });

  it('uses the API’s filters for site:, in:, is:favorite, is:broken and type:', () => {
    expect(plan('site:www.Docs.rs in:Archive is:favorite is:broken type:video').source).toEqual({
      kind: 'list',
      filter: { domain: 'docs.rs', collectionId: 'big', isFavorite: true, linkStatus: ['broken', 'error', 'unreachable'], type: 'video' },
    });
  });

  it('lists a small collection whole rather than searching it, inside the collection open now', () => {
    const p = planSearch(parseQuery('rust'), { kind: 'collection', id: 'small' }, library);
    expect(p.source).toEqual({ kind: 'list', filter: { collectionId: 'small' } });
    expect(p.accepts(bookmark({ title: 'rust', collectionId: 'small' }))).toBe(true);
    expect(p.accepts(bookmark({ title: 'rust', collectionId: 'big' }))).toBe(false);
    // A large one is searched, the collection checked on each match.
    expect(planSearch(parseQuery('rust'), { kind: 'collection', id: 'big' }, library).source).toEqual({ kind: 'search', q: 'rust' });
  });

  it('reads a tag and the tags under it (not a tag that only starts alike), a request each', () => {
    const p = plan('#Dev');
    expect(p.source).toEqual({ kind: 'tags', tags: [library.tags[0], library.tags[1]] });
    expect(p.accepts(bookmark({ tags: ['dev/rust'] }))).toBe(true);
    expect(p.accepts(bookmark({ tags: ['devops'] }))).toBe(false);
    expect(plan('#dev -#dev/rust').accepts(bookmark({ tags: ['dev', 'dev/rust'] }))).toBe(false);
  });

  it('searches inside the tag open now, and inside favourites and unsorted', () => {
    expect(planSearch(parseQuery('rust'), { kind: 'tag', id: 't2' }, library).source).toEqual({ kind: 'tags', tags: [library.tags[1]] });
    const fav = planSearch(parseQuery('rust'), { kind: 'favorites' }, library);
    expect(fav.source).toEqual({ kind: 'search', q: 'rust' });
    expect(fav.accepts(bookmark({ title: 'rust' }))).toBe(false);
    expect(fav.accepts(bookmark({ title: 'rust', isFavorite: true }))).toBe(true);
    expect(planSearch(parseQuery('rust'), { kind: 'unsorted' }, library).accepts(bookmark({ title: 'rust', collectionId: 'small' }))).toBe(false);
  });

  it('a tag larger than one answer is searched by text when there is text, listed when not', () => {
    expect(plan('#huge rust').source).toEqual({ kind: 'search', q: 'rust' });
    expect(plan('#huge').source).toEqual({ kind: 'tags', tags: [library.tags[3]] });
    expect(plan('#huge site:a.com').source).toEqual({ kind: 'list', filter: { domain: 'a.com' } });
  });

  it('a collection or tag that does not exist finds nothing without a request, and says why', () => {
    expect(plan('in:Nowhere rust').source).toEqual({ kind: 'none', reason: 'No collection is named "Nowhere".' });
    expect(plan('#nope').source).toEqual({ kind: 'none', reason: 'No tag is named "nope".' });
  });

  it('two collections of one name are both searched, without the API filter', () => {
    const p = plan('in:twin');
    expect(p.source).toEqual({ kind: 'list', filter: {} });
    expect(p.accepts(bookmark({ collectionId: 'twin2' }))).toBe(true);
    expect(p.accepts(bookmark({ collectionId: 'small' }))).toBe(false);
  });

  it('is:unsorted and is:untagged are checked on the client over the whole list', () => {
    const p = plan('is:untagged is:unsorted');
    expect(p.source).toEqual({ kind: 'list', filter: {} });
    expect(p.accepts(bookmark({}))).toBe(true);
    expect(p.accepts(bookmark({ tags: ['x'] }))).toBe(false);
  });

  describe('a smart folder as the source', () => {
    const folder = (id: string, match: 'all' | 'any', conditions: Condition[]) => ({ id, name: id, rules: { match, conditions } });
    const withFolders = (...smartFolders: ReturnType<typeof folder>[]) => ({
      ...library,
      tags: [...library.tags, { id: 't5', name: 'huge/part', count: 300 }, { id: 't6', name: 'big', count: 250 }],
      smartFolders,
    });
    const tagIs = (value: string): Condition => ({ field: 'tag', operator: 'equals', value });
    const planWith = (text: string, names: LibraryNames) => planSearch(parseQuery(text), { kind: 'all' }, names).source;

    it('reads a tag larger than its list through a folder of that tag, the folder that says the most first', () => {
      const names = withFolders(
        folder('fav', 'all', [{ field: 'isFavorite', operator: 'equals', value: 'true' }]),
        folder('big', 'all', [tagIs('BIG')]),
        folder('big-site', 'all', [tagIs('big'), { field: 'domain', operator: 'equals', value: 'docs.rs' }]),
      );
      expect(planWith('#big', names)).toEqual({ kind: 'folder', id: 'big', name: 'big' });
      expect(planWith('#big rust', names)).toEqual({ kind: 'folder', id: 'big', name: 'big' });
      expect(planWith('#big site:www.docs.rs', names)).toEqual({ kind: 'folder', id: 'big-site', name: 'big-site' });
      // Inside the tag open now, too; a tag that fits its list is read as before.
      expect(planSearch(parseQuery('rust'), { kind: 'tag', id: 't6' }, names).source).toEqual({ kind: 'folder', id: 'big', name: 'big' });
      expect(planWith('#dev', names).kind).toBe('tags');
    });

    it('never a folder that could leave a match out', () => {
      // `tag equals huge` is not the branch huge/…; a second condition the search does not ask for narrows too far.
      expect(planWith('#huge', withFolders(folder('exact', 'all', [tagIs('huge')]))).kind).toBe('tags');
      expect(planWith('#big', withFolders(folder('two', 'all', [tagIs('big'), { field: 'type', operator: 'equals', value: 'video' }]))).kind).toBe('tags');
      expect(planWith('#big', withFolders(folder('clicked', 'all', [tagIs('big'), { field: 'clickCount', operator: 'gte', value: '1' }]))).kind).toBe('tags');
      expect(planWith('#big', withFolders(folder('none', 'all', [])))).toEqual({ kind: 'tags', tags: [{ id: 't6', name: 'big', count: 250 }] });
      expect(planWith('-#big is:favorite', withFolders(folder('big', 'all', [tagIs('big')]))).kind).toBe('list');
    });

    it('a branch through `tag contains`; under `any`, one condition that holds is enough', () => {
      expect(planWith('#huge', withFolders(folder('contains', 'all', [{ field: 'tag', operator: 'contains', value: 'HUG' }])))).toEqual({
        kind: 'folder',
        id: 'contains',
        name: 'contains',
      });
      const either = folder('either', 'any', [tagIs('big'), { field: 'domain', operator: 'equals', value: 'a.com' }]);
      expect(planWith('#big', withFolders(either)).kind).toBe('folder');
      expect(holdsEveryMatch(either.rules, { wanted: [], filter: { domain: 'a.com' } })).toBe(true);
      expect(holdsEveryMatch(either.rules, { wanted: [], filter: { domain: 'b.com' } })).toBe(false);
      expect(holdsEveryMatch({ match: 'all', conditions: [{ field: 'domain', operator: 'contains', value: 'docs' }] }, { wanted: [], filter: { domain: 'docs.rs' } })).toBe(true);
      expect(holdsEveryMatch({ match: 'all', conditions: [{ field: 'isFavorite', operator: 'equals', value: 'false' }] }, { wanted: [], filter: { isFavorite: true } })).toBe(false);
    });
  });
});
