import type { Bookmark } from '../api/bookmarks.ts';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The term standing alone: no letter or digit (of any script) touches it on either side. */
const wholeWord = (term: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}(?![\\p{L}\\p{N}])`, 'iu');

/** Points per term: in the title before anywhere else, and as a whole word before inside another word. */
const TITLE_WORD = 8;
const TITLE_PART = 4;
const OTHER_WORD = 2;
const OTHER_PART = 1;

/**
 * Ranks matches: each term scores by where it is found (title first) and how
 * (whole word before part of a word: "rust" ranks Rust above Trust). Bookmarks
 * that contain a term only inside longer words are kept, after the rest, since
 * the API's search (and the user typing the start of a word) finds them too.
 * Equal scores keep the order they came in (newest first). Without terms, the
 * order is unchanged.
 */
export function rankResults(bookmarks: readonly Bookmark[], terms: readonly string[]): Bookmark[] {
  if (terms.length === 0) return [...bookmarks];
  const patterns = terms.map((t) => ({ t: t.toLocaleLowerCase(), word: wholeWord(t) }));
  const score = (b: Bookmark) => {
    const title = b.title.toLocaleLowerCase();
    const other = `${b.description}\n${b.url}`.toLocaleLowerCase();
    let points = 0;
    for (const { t, word } of patterns) {
      if (word.test(title)) points += TITLE_WORD;
      else if (title.includes(t)) points += TITLE_PART;
      else if (word.test(other)) points += OTHER_WORD;
      else if (other.includes(t)) points += OTHER_PART;
    }
    return points;
  };
  return bookmarks
    .map((b, i) => ({ b, i, s: score(b) }))
    .sort((x, y) => y.s - x.s || x.i - y.i)
    .map((x) => x.b);
}
