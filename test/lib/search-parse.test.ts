import { describe, expect, it } from 'vitest';
import { parseQuery, siteDomain } from '../../lib/search/parse.ts';

const terms = (text: string) => parseQuery(text).terms;
const notes = (text: string) => parseQuery(text).notes.map((n) => n.text);

describe('search parser: operators', () => {
  it('reads plain words and quoted phrases, and nothing else, with no notes', () => {
    expect(parseQuery('rust  "borrow checker" async')).toEqual({
      terms: [
        { kind: 'word', text: 'rust', exclude: false },
        { kind: 'phrase', text: 'borrow checker', exclude: false },
        { kind: 'word', text: 'async', exclude: false },
      ],
      notes: [],
    });
  });

  it('reads #tag and #a/b (a branch) as tags, and -#tag as an excluded tag', () => {
    expect(terms('#rust #lang/systems -#old')).toEqual([
      { kind: 'tag', name: 'rust', exclude: false },
      { kind: 'tag', name: 'lang/systems', exclude: false },
      { kind: 'tag', name: 'old', exclude: true },
    ]);
  });

  it('reads site: as the domain the API stores (lowercase, no scheme, www, port or path)', () => {
    expect(terms('site:Example.com')).toEqual([{ kind: 'site', domain: 'example.com' }]);
    expect(terms('site:https://www.Example.com:8080/a/b?c')).toEqual([{ kind: 'site', domain: 'example.com' }]);
    expect(siteDomain('WWW.docs.rs/')).toBe('docs.rs');
  });

  it('reads in:name and in:"a quoted name" as a collection', () => {
    expect(terms('in:Reading')).toEqual([{ kind: 'in', collection: 'Reading' }]);
    expect(terms('in:"Reading list" rust')).toEqual([
      { kind: 'in', collection: 'Reading list' },
      { kind: 'word', text: 'rust', exclude: false },
    ]);
  });

  it('reads is:favorite (and the British spelling), is:broken, is:unsorted, is:untagged and type:', () => {
    expect(terms('is:favorite is:Favourite is:broken is:unsorted is:untagged type:Video')).toEqual([
      { kind: 'is', value: 'favorite' },
      { kind: 'is', value: 'favorite' },
      { kind: 'is', value: 'broken' },
      { kind: 'is', value: 'unsorted' },
      { kind: 'is', value: 'untagged' },
      { kind: 'type', value: 'video' },
    ]);
  });

  it('reads -word and -"phrase" as exclusions; a lone hyphen or one inside a word is part of the word', () => {
    expect(terms('-draft -"old news" well-known')).toEqual([
      { kind: 'word', text: 'draft', exclude: true },
      { kind: 'phrase', text: 'old news', exclude: true },
      { kind: 'word', text: 'well-known', exclude: false },
    ]);
    expect(terms('a - b').map((t) => t.kind === 'word' && t.text)).toEqual(['a', '-', 'b']);
  });

  it('keeps URLs and times as words, without a note', () => {
    expect(parseQuery('https://example.com/x 10:30')).toEqual({
      terms: [
        { kind: 'word', text: 'https://example.com/x', exclude: false },
        { kind: 'word', text: '10:30', exclude: false },
      ],
      notes: [],
    });
  });

  it('a quoted single word is a word; an empty quote is nothing', () => {
    expect(parseQuery('"rust" ""')).toEqual({ terms: [{ kind: 'word', text: 'rust', exclude: false }], notes: [] });
  });

  it('an empty text is an empty search', () => {
    expect(parseQuery('   ')).toEqual({ terms: [], notes: [] });
  });
});

describe('search parser: malformed input is kept as words and said', () => {
  it('an unclosed quote: the words after it are searched one by one', () => {
    expect(parseQuery('rust "borrow checker')).toEqual({
      terms: [
        { kind: 'word', text: 'rust', exclude: false },
        { kind: 'word', text: 'borrow', exclude: false },
        { kind: 'word', text: 'checker', exclude: false },
      ],
      notes: [{ text: 'A quote is not closed, so the words after it are searched one by one.' }],
    });
    expect(terms('in:"Reading list')).toEqual([
      { kind: 'in', collection: 'Reading' },
      { kind: 'word', text: 'list', exclude: false },
    ]);
  });

  it('site: with nothing after it is a word, with a note that shows an example', () => {
    expect(terms('site: rust')).toEqual([
      { kind: 'word', text: 'site:', exclude: false },
      { kind: 'word', text: 'rust', exclude: false },
    ]);
    expect(notes('site:')).toEqual(['"site:" needs something after it, such as site:example.com; it is searched as a word.']);
    expect(notes('site:/')).toEqual([]);
    expect(terms('site:https://')).toEqual([{ kind: 'word', text: 'site:https://', exclude: false }]);
    expect(notes('site:https://')).toEqual(['"site:https://" names no site, so it is searched as words.']);
  });

  it('an unknown operator is searched as words and said so', () => {
    expect(terms('foo:bar')).toEqual([{ kind: 'word', text: 'foo:bar', exclude: false }]);
    expect(notes('foo:bar')).toEqual(['"foo:bar" is not a search operator, so it is searched as words.']);
  });

  it('an unknown is: or type: value, an excluded operator and a bare # are words, each with a note', () => {
    expect(terms('is:read type:podcast -site:a.com #')).toEqual([
      { kind: 'word', text: 'is:read', exclude: false },
      { kind: 'word', text: 'type:podcast', exclude: false },
      { kind: 'word', text: 'site:a.com', exclude: true },
      { kind: 'word', text: '#', exclude: false },
    ]);
    expect(notes('is:read type:podcast -site:a.com #')).toEqual([
      '"is:read" is not understood (try is:favorite, is:broken, is:unsorted, is:untagged), so it is searched as words.',
      '"type:podcast" is not a type (try type:link, type:article, type:image, type:video, type:document), so it is searched as words.',
      '"-site:" cannot exclude; "-site:a.com" is searched as words.',
      '"#" names no tag, so it is searched as a word.',
    ]);
  });

  it('never throws, whatever is typed', () => {
    for (const text of ['"', '-', '-"', '#/', 'in:"', ':', 'a:"b', '"""', '-#', 'is:', '\u0000"x', 'site:"www."']) {
      expect(() => parseQuery(text), text).not.toThrow();
    }
    expect(terms('-#')).toEqual([{ kind: 'word', text: '#', exclude: true }]);
  });
});
