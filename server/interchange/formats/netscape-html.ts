import type { CollectionAttributes } from '../collections.ts';
import { type ImportSink, type ChunkReader, parseWhole } from '../events.ts';
import type { InterchangeBookmark, ParsedImport } from '../types.ts';
import { type DateRange, type DateRead, epochToMs, exactMs, readDate } from '../dates.ts';
import { aboutUrl, checkUrl, childPath, cleanTags, isBookmarkType, newBookmark, skippedEntry } from '../values.ts';
import { type HtmlEvents, htmlEventReader } from './html-events.ts';
import { normaliseText } from './netscape-html-text.ts';

/**
 * Reads the Netscape bookmark file every browser and bookmark service exports.
 *
 * htmlparser2's tokenizer does the tokenising and entity decoding (html-events.ts); the
 * structure is tracked here from the tag events alone, never from an element tree, because
 * real files leave <DT>, <p> and even <A> unclosed and some (Safari) have no outer <DL> at all:
 * - <H3> names a folder; the next <DL> holds its content, each </DL> leaves one level.
 * - <A HREF> is a bookmark in the current folder; its text (up to </A> or the next
 *   structural tag) is the title.
 * - <DD> right after an <A> is its description, right after an <H3> its folder's notes.
 *
 * Decisions:
 * - Every folder is kept as a collection, including browser roots ("Bookmarks bar",
 *   "Bookmarks Toolbar", "Other bookmarks") and a single folder wrapping everything:
 *   dropping one is a guess that, when wrong, silently loses a real folder of the user's
 *   (and would break our own round trip), while keeping it costs the user one move.
 * - TAGS is split on commas only. Every exporter we know (Firefox, Pinboard, Delicious,
 *   Shaarli, Raindrop, Diigo) writes commas, and Firefox tags may contain spaces, so
 *   splitting on spaces would corrupt real tags to rescue a hypothetical file.
 * - ADD_DATE is the creation date, LAST_MODIFIED the fallback when it is missing or 0
 *   (later than the truth, but closer than nothing); see epochToMs for units. A date
 *   outside the accepted range skips the bookmark with its reason (see dates.ts).
 * - FEEDURL (Firefox live bookmarks) is used only when there is no HREF.
 * - PRIVATE, TOREAD, ICON, ICON_URI, LAST_CHARSET, SHORTCUTURL are ignored.
 * - Our own exports add DATA-* attributes that browsers ignore: DATA-NOTE, DATA-TYPE,
 *   DATA-FAVORITE, DATA-TAGS (JSON, when a tag holds a comma), DATA-CREATED (exact ms),
 *   DATA-ICON / DATA-COLOR on folders, and DATA-TEXT holding the exact text of an
 *   element whose content would otherwise be trimmed or newline-normalised.
 */
export const netscapeHtmlReader: ChunkReader = (range, sink) => {
  const reader = new NetscapeReader(range, sink);
  const events = htmlEventReader(reader);
  return {
    write: (chunk) => events.write(chunk),
    end() {
      events.end();
      reader.end();
    },
  };
};

export const parseNetscapeHtml = (text: string, range: DateRange): ParsedImport => parseWhole('netscape-html', netscapeHtmlReader, text, range);

type Attributes = Record<string, string>;

type Capture =
  | { kind: 'title'; bookmark: InterchangeBookmark | null; attributes: Attributes; text: string }
  | { kind: 'folder'; attributes: Attributes; text: string }
  | { kind: 'dd'; target: DdTarget; attributes: Attributes; text: string };

/** A bookmark or folder read, which a <DD> may still describe: told to the sink once nothing can. */
type DdTarget = { kind: 'bookmark'; bookmark: InterchangeBookmark } | { kind: 'folder'; path: string[]; attributes: CollectionAttributes };

class NetscapeReader implements HtmlEvents {
  /** Folder path of each open <DL>. */
  private readonly lists: string[][] = [];
  /** A folder whose <H3> was read and whose <DL> may follow. */
  private pendingFolder: string[] | null = null;
  /** What a <DD> would describe if one came now. */
  private ddTarget: DdTarget | null = null;
  private capture: Capture | null = null;

  constructor(
    private readonly range: DateRange,
    private readonly sink: ImportSink,
  ) {}

  open(name: string, attributes: Attributes, line: number): void {
    switch (name) {
      case 'a':
        this.interrupt();
        this.capture = { kind: 'title', bookmark: this.startBookmark(attributes, line), attributes, text: '' };
        return;
      case 'h3':
        this.interrupt();
        this.capture = { kind: 'folder', attributes, text: '' };
        return;
      case 'dd': {
        this.finishCapture();
        const target = this.ddTarget;
        this.ddTarget = null;
        if (target !== null) this.capture = { kind: 'dd', target, attributes, text: '' };
        return;
      }
      case 'dl':
        this.finishCapture();
        this.lists.push(this.pendingFolder ?? this.currentPath());
        this.pendingFolder = null;
        this.describe(null);
        return;
      case 'dt':
      case 'hr':
        this.interrupt();
        return;
      case 'br':
        if (this.capture !== null) this.capture.text += '\n';
        return;
    }
  }

  close(name: string): void {
    if (name === 'a' && this.capture?.kind === 'title') this.finishCapture();
    else if (name === 'h3' && this.capture?.kind === 'folder') this.finishCapture();
    else if (name === 'dl') {
      this.interrupt();
      this.lists.pop();
    }
  }

  text(data: string): void {
    if (this.capture !== null) this.capture.text += data;
  }

  end(): void {
    this.finishCapture();
    this.describe(null);
  }

  private currentPath(): string[] {
    return this.lists.at(-1) ?? [];
  }

  /** A structural tag ends whatever was being read and what a <DD> or <DL> could attach to. */
  private interrupt(): void {
    this.finishCapture();
    this.pendingFolder = null;
    this.describe(null);
  }

  /** What a <DD> would now describe; the one before is complete. */
  private describe(target: DdTarget | null): void {
    if (this.ddTarget !== null) this.tell(this.ddTarget);
    this.ddTarget = target;
  }

  private tell(target: DdTarget): void {
    if (target.kind === 'bookmark') this.sink.bookmark(target.bookmark);
    else this.sink.collection(target.path, target.attributes);
  }

  private startBookmark(attributes: Attributes, line: number): InterchangeBookmark | null {
    const url = checkUrl(attributes.href ?? attributes.feedurl);
    if (!url.ok) {
      this.sink.skipped(skippedEntry(url, line));
      return null;
    }
    const created = readCreated(attributes, this.range);
    if (!created.ok) {
      this.sink.skipped(skippedEntry(aboutUrl(url.url, created), line));
      return null;
    }
    const type = attributes['data-type'] ?? '';
    return newBookmark(url.url, {
      note: attributes['data-note'] ?? '',
      type: isBookmarkType(type) ? type : 'link',
      isFavorite: attributes['data-favorite'] === '1' || attributes['data-favorite'] === 'true',
      tags: readTags(attributes),
      collectionPath: [...this.currentPath()],
      createdAt: created.ms,
    });
  }

  private finishCapture(): void {
    const capture = this.capture;
    if (capture === null) return;
    this.capture = null;
    const value = capture.attributes['data-text'] ?? normaliseText(capture.text);
    if (capture.kind === 'title') {
      if (capture.bookmark === null) return;
      capture.bookmark.title = value;
      this.describe({ kind: 'bookmark', bookmark: capture.bookmark });
    } else if (capture.kind === 'folder') {
      const path = childPath(this.currentPath(), value);
      // Too deep: its content goes to the folder it is in, whose attributes and notes stay its own.
      this.pendingFolder = path ?? this.currentPath();
      if (path === null) return;
      this.describe({ kind: 'folder', path, attributes: { icon: capture.attributes['data-icon'], color: capture.attributes['data-color'] } });
    } else {
      if (capture.target.kind === 'bookmark') capture.target.bookmark.description = value;
      else capture.target.attributes.notes = value;
      this.tell(capture.target);
    }
  }
}

function readTags(attributes: Attributes): string[] {
  const exact = attributes['data-tags'];
  if (exact !== undefined) {
    try {
      const value: unknown = JSON.parse(exact);
      if (Array.isArray(value)) return cleanTags(value.filter((tag): tag is string => typeof tag === 'string'));
    } catch {
      // damaged: fall back to the browser-readable TAGS
    }
  }
  return cleanTags((attributes.tags ?? '').split(','));
}

/** Our exact DATA-CREATED first, then the browsers' dates: the first one given (not empty, not 0) decides. */
const DATE_ATTRIBUTES = [
  ['data-created', exactMs],
  ['add_date', epochToMs],
  ['last_modified', epochToMs],
] as const;

function readCreated(attributes: Attributes, range: DateRange): DateRead {
  const given = DATE_ATTRIBUTES.find(([name]) => !['', '0'].includes(attributes[name]?.trim() ?? ''));
  if (given === undefined) return { ok: true, ms: null };
  const [name, toMs] = given;
  return readDate(name.toUpperCase(), attributes[name], toMs, range);
}

const NETSCAPE_DOCTYPE = /<!DOCTYPE\s+NETSCAPE-Bookmark-file-1\s*>/i;
const LINK_ENTRY = /<dt[^>]*>\s*<a\s[^>]*\bhref\s*=/i;
const LIST = /<dl[\s>]/i;
const FOLDER_ENTRY = /<dt[^>]*>\s*<h3[\s>]/i;

/** What detection looks for anywhere in the file (see looksLikeNetscapeHtml). */
export const NETSCAPE_MARKS: readonly RegExp[] = [LINK_ENTRY, LIST, FOLDER_ENTRY];

/**
 * The doctype near the start (`head`), or failing that (hand-made and older files) the
 * <DT><A HREF / <DL><DT><H3 shape anywhere (`found`: which of NETSCAPE_MARKS the file has).
 */
export function looksLikeNetscapeHtml(head: string, found: ReadonlySet<RegExp>): boolean {
  return NETSCAPE_DOCTYPE.test(head.slice(0, 2048)) || found.has(LINK_ENTRY) || (found.has(LIST) && found.has(FOLDER_ENTRY));
}
