import { collectionTree, type CollectionNode } from '../collections.ts';
import type { ExportSource, InterchangeBookmark } from '../types.ts';
import { epochToMs } from '../dates.ts';
import { escapeAttribute, escapeText, normaliseText } from './netscape-html-text.ts';

// The header Chrome and Firefox write, byte for byte, because some importers sniff it.
const HEADER = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
`;
const INDENT = '    ';

/**
 * A Netscape bookmark file that Chrome and Firefox import (folders, titles, dates, tags,
 * descriptions), carrying in DATA-* attributes what browsers have no place for, so that
 * re-importing it into Shelf loses nothing (see parseNetscapeHtml for the attributes).
 * Inside a folder, subfolders come first, then its bookmarks in library order;
 * Unsorted bookmarks sit at the top level.
 */
export async function* netscapeHtmlChunks(source: ExportSource): AsyncGenerator<string> {
  const folderDate = String(Math.max(0, Math.floor(source.exportedAt / 1000)));
  yield HEADER;
  yield* folderBody(collectionTree(source.collections, []), [], 1);
  yield '</DL><p>\n';

  async function* folderBody(nodes: CollectionNode[], path: readonly string[], depth: number): AsyncGenerator<string> {
    const pad = INDENT.repeat(depth);
    for (const { collection, children } of nodes) {
      const name = collection.path.at(-1) ?? '';
      const lines = [
        `${pad}<DT><H3 ADD_DATE="${folderDate}" LAST_MODIFIED="${folderDate}"` +
          optional('DATA-ICON', collection.icon) +
          optional('DATA-COLOR', collection.color) +
          exactText(name) +
          `>${escapeText(name)}</H3>\n`,
      ];
      if (collection.notes !== '') lines.push(`${pad}<DD${exactText(collection.notes)}>${escapeText(collection.notes)}\n`);
      lines.push(`${pad}<DL><p>\n`);
      yield lines.join('');
      yield* folderBody(children, collection.path, depth + 1);
      yield `${pad}</DL><p>\n`;
    }
    for await (const page of source.bookmarks(path)) {
      if (page.length > 0) yield page.map((bookmark) => bookmarkLines(bookmark, pad)).join('');
    }
  }
}

function bookmarkLines(b: InterchangeBookmark, pad: string): string {
  let line = `${pad}<DT><A HREF="${escapeAttribute(b.url)}"${dateAttributes(b.createdAt)}`;
  if (b.tags.length > 0) {
    // Browsers split TAGS on commas, so a comma inside a tag cannot be said there.
    line += ` TAGS="${escapeAttribute(b.tags.map((tag) => tag.replaceAll(',', ' ')).join(','))}"`;
    if (b.tags.some((tag) => tag.includes(','))) line += optional('DATA-TAGS', JSON.stringify(b.tags));
  }
  if (b.type !== 'link') line += optional('DATA-TYPE', b.type);
  if (b.isFavorite) line += ' DATA-FAVORITE="1"';
  line += optional('DATA-NOTE', b.note) + exactText(b.title) + `>${escapeText(b.title)}</A>\n`;
  if (b.description !== '') line += `${pad}<DD${exactText(b.description)}>${escapeText(b.description)}\n`;
  return line;
}

function dateAttributes(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  const seconds = Math.floor(ms / 1000);
  const browserDate = seconds > 0 ? ` ADD_DATE="${seconds}"` : '';
  // ADD_DATE has whole seconds, read in the unit its magnitude says; anything it cannot
  // carry exactly travels in DATA-CREATED.
  return epochToMs(String(seconds)) === ms ? browserDate : `${browserDate} DATA-CREATED="${Math.round(ms)}"`;
}

function optional(name: string, value: string): string {
  return value === '' ? '' : ` ${name}="${escapeAttribute(value)}"`;
}

/** The exact text, when reading the element content back would trim or alter it. */
function exactText(text: string): string {
  return normaliseText(text) === text ? '' : ` DATA-TEXT="${escapeAttribute(text)}"`;
}
