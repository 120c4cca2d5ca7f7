import type { browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';
import { normaliseUrl } from '../../lib/url.ts';
import type { Account } from './account.ts';
import type { OpenCounts } from './open-counts.ts';

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

/** Saved URLs holding every typed word: the local index knows URLs only, and answers without a request. */
export async function localMatches(text: string): Promise<{ url: string; id: string }[]> {
  const wanted = words(text);
  if (wanted.length === 0) return [];
  const { entries } = await savedIndexItem.get();
  const found: { url: string; id: string }[] = [];
  for (const [url, id] of Object.entries(entries)) {
    const lower = url.toLowerCase();
    // The index keeps web pages' URLs without their scheme: such a page is opened over https.
    if (wanted.every((w) => lower.includes(w))) found.push({ url: url.includes('://') ? url : `https://${url}`, id });
    if (found.length === MAX_SUGGESTIONS) break;
  }
  return found;
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
  /** Which bookmark each suggested URL is, so an open is counted. */
  private ids = new Map<string, string>();

  constructor(
    private account: Account,
    private opens: Pick<OpenCounts, 'record'>,
    private tabs: OpeningTabs,
    private xml: boolean,
    private pauseMs = OMNIBOX_PAUSE_MS,
  ) {}

  /** Calls `suggest` with the local matches at once and again with the search's after the pause (unless stale). */
  async inputChanged(text: string, suggest: (suggestions: Suggestion[]) => void): Promise<void> {
    const input = ++this.latest;
    if (this.timer) clearTimeout(this.timer);
    const local = await localMatches(text);
    for (const m of local) this.ids.set(m.url, m.id);
    const localSuggestions = local.map((m) => ({ content: m.url, description: escapeDescription(m.url, this.xml) }));
    if (input !== this.latest) return;
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
    for (const b of found) this.ids.set(b.url, b.id);
    const fromSearch = found.map((b) => ({ content: b.url, description: escapeDescription(b.title ? `${b.title} — ${b.url}` : b.url, this.xml) }));
    suggest([...fromSearch, ...localSuggestions.filter((s) => !seen.has(normaliseUrl(s.content)))].slice(0, MAX_SUGGESTIONS));
  }

  /** Opens the chosen URL where the user asked; typed words that are no URL open the first local match. */
  async inputEntered(text: string, disposition: Disposition): Promise<void> {
    const url = isUrl(text) ? text.trim() : (await localMatches(text))[0]?.url;
    if (!url) return;
    if (disposition === 'currentTab') await this.tabs.update({ url });
    else await this.tabs.create({ url, active: disposition === 'newForegroundTab' });
    const id = this.ids.get(url);
    if (id) await this.opens.record(id);
  }
}

export function setupOmnibox(browserApi: Browser, omnibox: Omnibox): void {
  browserApi.omnibox?.onInputChanged.addListener((text, suggest) => void omnibox.inputChanged(text, suggest));
  browserApi.omnibox?.onInputEntered.addListener((text, disposition) => void omnibox.inputEntered(text, disposition));
}
