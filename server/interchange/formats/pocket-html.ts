import { type DateRange, epochToMs, readDate } from '../dates.ts';
import type { InterchangeBookmark, ParsedImport, SkippedEntry } from '../types.ts';
import { ARCHIVED_TAG, aboutUrl, checkUrl, cleanTags, newBookmark, skippedEntry } from '../values.ts';
import { readHtmlEvents } from './html-events.ts';
import { LineCounter } from './line-counter.ts';
import { normaliseText } from './netscape-html-text.ts';

/**
 * Pocket's HTML export (`ril_export.html`): not a Netscape file but `<h1>Unread</h1>` and
 * `<h1>Read Archive</h1>`, each with a `<ul>` of `<li><a href time_added tags>title</a>`.
 * time_added is in seconds, tags are comma-separated. Bookmarks under Read Archive get the
 * tag ARCHIVED_TAG, as Pocket's CSV status `archive` does. There are no folders.
 */
export function parsePocketHtml(text: string, range: DateRange): ParsedImport {
  const bookmarks: InterchangeBookmark[] = [];
  const skipped: SkippedEntry[] = [];
  const lines = new LineCounter(text);
  let heading: string | null = null;
  let archived = false;
  let link: { bookmark: InterchangeBookmark | null; title: string } | null = null;

  const readLink = (attributes: Record<string, string>, line: number): InterchangeBookmark | null => {
    const url = checkUrl(attributes.href);
    if (!url.ok) {
      skipped.push(skippedEntry(url, line));
      return null;
    }
    const created = readDate('time_added', attributes.time_added, epochToMs, range);
    if (!created.ok) {
      skipped.push(skippedEntry(aboutUrl(url.url, created), line));
      return null;
    }
    const tags = (attributes.tags ?? '').split(',');
    return newBookmark(url.url, { tags: cleanTags(archived ? [...tags, ARCHIVED_TAG] : tags), createdAt: created.ms });
  };

  readHtmlEvents(text, {
    open(name, attributes, index) {
      if (name === 'h1') heading = '';
      if (name === 'a') link = { bookmark: readLink(attributes, lines.lineAt(index)), title: '' };
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
          bookmarks.push(link.bookmark);
        }
        link = null;
      }
    },
  });
  return { format: 'pocket-html', bookmarks, collections: [], skipped };
}

const POCKET_LINK = /<a\s[^>]*\btime_added\s*=/i;
const POCKET_TITLE = /<title>\s*Pocket Export\s*<\/title>/i;

/** A link with time_added, or (an export with nothing in it) Pocket's title. */
export function looksLikePocketHtml(text: string): boolean {
  return POCKET_LINK.test(text) || POCKET_TITLE.test(text.slice(0, 2048));
}
