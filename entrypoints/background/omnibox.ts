import type { browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { normaliseUrl } from '../../lib/url.ts';
import type { Account } from './account.ts';
import type { OpenCounts } from './open-counts.ts';
import type { IndexMemory } from './index-memory.ts';

/** Keystrokes closer together than this make one search: the API is asked once the user pauses. */
export const OMNIBOX_PAUSE_MS = 300;
/** The address bar shows few suggestions; more would only cost the server. */
const MAX_SUGGESTIONS = 6;

type Browser = typeof browser;
export interface Suggestion {
  content: string;
  description: string;
}
/** What the box needs of `browser.tabs` (the fake browser's tabs in tests). */
interface OpeningTabs {
  create(properties: { url: string; active: boolean }): Promise<unknown>;
  update(properties: { url: string }): Promise<unknown>;
}
type Disposition = 'currentTab' | 'newForegroundTab' | 'newBackgroundTab';

/** Chrome reads a description as XML (with <match> and <url> markup); Firefox shows it as plain text. */
export function escapeDescription(text: string, xml: boolean): string {
  return xml ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;') : text;
}

function words(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * A suggestion's bookmark and address: its own URL when the search gave it (exact); for an index match, the key
 * shown as an address, and the bookmark's own URL read on Enter (the key drops the scheme, `www.`, tracking parameters).
 * The id is looked up on Enter (an index match's comes with the ids, read after the keys); null when none is known.
 */
interface Chosen {
  id(): Promise<string | null>;
  url: string;
  exact: boolean;
}

function isUrl(text: string): boolean {
  return /^https?:\/\/\S+$/i.test(text.trim());
}

/**
 * The `sh` keyword in the address bar: the saved URLs matching the typed words at once, then the API's search
 * (background priority: it never delays what the user waits for elsewhere) once typing pauses. An answer for input
 * the user has since changed is dropped.
 */
export class Omnibox {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private latest = 0;
  /** The bookmarks behind the suggestions shown for the latest input, by the text each suggestion enters. */
  private chosen = new Map<string, Chosen>();

  constructor(
    private account: Account,
    private index: Pick<IndexMemory, 'matching' | 'load'>,
    private opens: Pick<OpenCounts, 'record'>,
    private tabs: OpeningTabs,
    private xml: boolean,
    private pauseMs = OMNIBOX_PAUSE_MS,
  ) {}

  /** Calls `suggest` with the local matches at once and again with the search's after the pause (unless stale). */
  async inputChanged(text: string, suggest: (suggestions: Suggestion[]) => void): Promise<void> {
    const input = ++this.latest;
    if (this.timer) clearTimeout(this.timer);
    // Keystrokes typed while a stopped worker reads the text wait for it together: once it is in memory, only the
    // latest is matched (each of a word's keystrokes matched in turn held the last one's answer back behind them all).
    if (words(text).length > 0) await this.index.load();
    if (input !== this.latest) return;
    const local = await this.localMatches(text);
    if (input !== this.latest) return;
    this.chosen = new Map(local.map((m) => [m.url, m]));
    const localSuggestions = local.map(({ url }) => ({ content: url, description: escapeDescription(url, this.xml) }));
    suggest(localSuggestions);
    if (words(text).length === 0) return;
    await new Promise<void>((resolve) => {
      this.timer = setTimeout(resolve, this.pauseMs);
    });
    if (input !== this.latest) return;
    let found: Bookmark[];
    try {
      const client = await this.account.client();
      found = await client.call('searchBookmarks', { query: { q: text.trim(), limit: String(MAX_SUGGESTIONS) }, priority: 'background' });
    } catch {
      // Signed out or offline: the local matches already shown are all there is.
      return;
    }
    if (input !== this.latest) return;
    const seen = new Set(found.map((b) => normaliseUrl(b.url)));
    for (const b of found) this.chosen.set(b.url, { id: () => Promise.resolve(b.id), url: b.url, exact: true });
    const fromSearch = found.map((b) => ({ content: b.url, description: escapeDescription(b.title ? `${b.title} — ${b.url}` : b.url, this.xml) }));
    suggest([...fromSearch, ...localSuggestions.filter((s) => !seen.has(normaliseUrl(s.content)))].slice(0, MAX_SUGGESTIONS));
  }

  /** Opens the chosen bookmark where the user asked; typed words that are no URL open the first local match. */
  async inputEntered(text: string, disposition: Disposition): Promise<void> {
    const typed = text.trim();
    const chosen = this.chosen.get(typed) ?? (isUrl(typed) ? null : (await this.localMatches(typed))[0]);
    const id = chosen ? await chosen.id() : null;
    const url = chosen ? (chosen.exact || id === null ? chosen.url : ((await this.addressOf(id)) ?? chosen.url)) : isUrl(typed) ? typed : null;
    if (!url) return;
    if (disposition === 'currentTab') await this.tabs.update({ url });
    else await this.tabs.create({ url, active: disposition === 'newForegroundTab' });
    if (id !== null) await this.opens.record(id);
  }

  private async localMatches(text: string): Promise<Chosen[]> {
    const matches = await this.index.matching(words(text), MAX_SUGGESTIONS);
    return matches.map(({ key, id }) => ({ id, url: key.includes('://') ? key : `https://${key}`, exact: false }));
  }

  /** The bookmark's own address; null when the server cannot say now (the key's address is then opened). */
  private async addressOf(id: string): Promise<string | null> {
    try {
      const client = await this.account.client();
      return (await client.call('getBookmark', { params: { id }, priority: 'user' })).url;
    } catch {
      return null;
    }
  }
}

export function setupOmnibox(browserApi: Browser, omnibox: Omnibox, index: Pick<IndexMemory, 'load'>): void {
  browserApi.omnibox?.onInputStarted.addListener(() => void index.load());
  browserApi.omnibox?.onInputChanged.addListener((text, suggest) => void omnibox.inputChanged(text, suggest));
  browserApi.omnibox?.onInputEntered.addListener((text, disposition) => void omnibox.inputEntered(text, disposition));
}
