import { type DateRange, epochToMs, readDate } from '../dates.ts';
import { type ChunkReader, parseWhole } from '../events.ts';
import type { InterchangeBookmark, ParsedImport } from '../types.ts';
import { ARCHIVED_TAG, aboutUrl, checkUrl, cleanTags, newBookmark, skippedEntry } from '../values.ts';
import { htmlEventReader } from './html-events.ts';
import { normaliseText } from './netscape-html-text.ts';

/**
 * Pocket's HTML export (`ril_export.html`): not a Netscape file but `<h1>Unread</h1>` and
 * `<h1>Read Archive</h1>`, each with a `<ul>` of `<li><a href time_added tags>title</a>`.
 * time_added is in seconds, tags are comma-separated. Bookmarks under Read Archive get the
 * tag ARCHIVED_TAG, as Pocket's CSV status `archive` does. There are no folders.
 */
export const pocketHtmlReader: ChunkReader = (range, sink) => {
  let heading: string | null = null;
  let archived = false;
  let link: { bookmark: InterchangeBookmark | null; title: string } | null = null;

  const readLink = (attributes: Record<string, string>, line: number): InterchangeBookmark | null => {
    const url = checkUrl(attributes.href);
    if (!url.ok) {
      sink.skipped(skippedEntry(url, line));
      return null;
    }
    const created = readDate('time_added', attributes.time_added, epochToMs, range);
    if (!created.ok) {
      sink.skipped(skippedEntry(aboutUrl(url.url, created), line));
      return null;
    }
    const tags = (attributes.tags ?? '').split(',');
    return newBookmark(url.url, { tags: cleanTags(archived ? [...tags, ARCHIVED_TAG] : tags), createdAt: created.ms });
  };

  return htmlEventReader({
    open(name, attributes, line) {
      if (name === 'h1') heading = '';
      if (name === 'a') link = { bookmark: readLink(attributes, line), title: '' };
    },
    text(data) {
      if (heading !== null) heading += data;
      if (link !== null) link.title += data;
    },
    close(name) {
      if (name === 'h1' && heading !== null) {
        archived = /archive/i.test(heading);
        heading = null;
      }
      if (name === 'a' && link !== null) {
        if (link.bookmark !== null) {
          link.bookmark.title = normaliseText(link.title).trim();
          sink.bookmark(link.bookmark);
        }
        link = null;
      }
    },
  });
};

export const parsePocketHtml = (text: string, range: DateRange): ParsedImport => parseWhole('pocket-html', pocketHtmlReader, text, range);

const POCKET_LINK = /<a\s[^>]*\btime_added\s*=/i;
const POCKET_TITLE = /<title>\s*Pocket Export\s*<\/title>/i;

/** What detection looks for anywhere in the file (see looksLikePocketHtml). */
export const POCKET_MARKS: readonly RegExp[] = [POCKET_LINK];

/** A link with time_added anywhere (`found`: which of POCKET_MARKS the file has), or (an export with nothing in it) Pocket's title near the start. */
export function looksLikePocketHtml(head: string, found: ReadonlySet<RegExp>): boolean {
  return found.has(POCKET_LINK) || POCKET_TITLE.test(head.slice(0, 2048));
}
