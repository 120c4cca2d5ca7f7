import { describe, expect, it } from 'vitest';
import { readImport } from '../../support/import-files.ts';

const chromium = (children: unknown[]) => JSON.stringify({ roots: { bookmark_bar: { type: 'folder', name: 'Bar', children }, other: { type: 'folder', name: 'Other', children: [] } } });
const firefox = (children: unknown[]) => JSON.stringify({ type: 'text/x-moz-place-container', root: 'placesRoot', children });

describe('browser JSON trees', () => {
  it('read 100,000 nested folders as ten levels, without overflowing the stack', () => {
    const depth = 100_000;
    const json = chromium([]).replace(
      '"children":[]},"other"',
      `"children":[${'{"type":"folder","name":"a","children":['.repeat(depth)}{"type":"url","name":"x","url":"https://deep.example/"}${']}'.repeat(depth)}]},"other"`,
    );
    const parsed = readImport(json);
    expect(parsed.bookmarks.map((b) => b.collectionPath)).toEqual([['Bar', ...Array<string>(9).fill('a')]]);
    expect(parsed.collections).toHaveLength(10);
  });

  it('skip a node that is no bookmark, folder or separator, and a bookmark without its URL, saying so', () => {
    const parsed = readImport(
      chromium([{ type: 'url', name: 'no url' }, { type: 'weird' }, 7, { type: 'url', name: 'ok', url: 'https://ok.example/', date_added: 'soon' }]),
    );
    expect(parsed.bookmarks).toEqual([]);
    expect(parsed.skipped.map((s) => [s.reason, s.group])).toEqual([
      ['an entry of the bookmark tree is not a bookmark, folder or separator', 'unreadable entry'],
      ['an entry of the bookmark tree is not a bookmark, folder or separator', 'unreadable entry'],
      ['an entry of the bookmark tree is not a bookmark, folder or separator', 'unreadable entry'],
      [expect.stringMatching(/^https:\/\/ok.example\/: date_added "soon" is not a date between 1990-01-01 and /), expect.stringMatching(/^a date not between/)],
    ]);
  });

  it('read a Firefox backup without roots as the top level, and an unknown root as a folder of its title', () => {
    const place = (uri: string) => ({ type: 'text/x-moz-place', uri, title: uri });
    const parsed = readImport(
      firefox([place('https://loose.example/'), { type: 'text/x-moz-place-container', root: 'newRoot', title: 'New root', children: [place('https://new.example/')] }]),
    );
    expect(parsed.format).toBe('firefox-json');
    expect(parsed.bookmarks.map((b) => [b.url, b.collectionPath])).toEqual([
      ['https://new.example/', ['New root']],
      ['https://loose.example/', []],
    ]);
  });
});
