import { browser, type Browser } from 'wxt/browser';
import { send } from '../../components/messenger.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import { type ClientError, toClientError } from '../../lib/client/errors.ts';
import type { AccountState } from '../../lib/messaging/protocol.ts';
import { type Draft, lastCollectionItem, userItem } from '../../lib/storage/items.ts';
import { DraftBook } from './drafts.ts';

export type Settled<T> = { ok: true; value: T } | { ok: false; error: ClientError };

/** Never rejects, so that an answer nobody waits for (say, tags when signed out) is no unhandled rejection. */
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (err: unknown) => ({ ok: false, error: toClientError(err) }),
  );

export interface TabPage {
  url: string;
  title: string;
}

/** What is known locally about the page, enough to show the form and let Save work. */
export type PageState =
  | { kind: 'no-tab' }
  | { kind: 'unsaveable'; url: string }
  | {
      kind: 'page';
      page: TabPage;
      draft: Draft | null;
      lastCollectionId: string | null;
      /** A user is stored: the account is very likely signed in, so the form need not wait for the background. */
      signedInHint: boolean;
      drafts: DraftBook;
    };

export interface Startup {
  page: Promise<PageState>;
  account: Promise<Settled<AccountState>>;
  /** The saved bookmark for the page; null when it is not saved (or the page cannot be saved). */
  lookup: Promise<Settled<Bookmark | null>>;
  tags: Promise<Settled<Tag[]>>;
  collections: Promise<Settled<Collection[]>>;
}

export const isWebUrl = (url: string): boolean => /^https?:\/\//i.test(url);

/** `popup.html?tabId=123` acts on that tab; anything else means the current window's active tab. */
export function tabIdFrom(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('tabId');
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

async function findTab(tabId: number | undefined): Promise<Browser.tabs.Tab | undefined> {
  if (tabId !== undefined) return browser.tabs.get(tabId);
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab;
}

/**
 * Everything the popup needs, asked for at once: the tab and the local reads
 * (drafts, last collection) decide the form; the background's answers
 * (account, saved lookup, tags, collections) fill in as they arrive.
 */
export function startPopup({ tabId, now = Date.now() }: { tabId?: number; now?: number } = {}): Startup {
  const tab = findTab(tabId).catch(() => undefined);
  const drafts = DraftBook.open(now).catch(() => DraftBook.empty());
  const lastCollectionId = lastCollectionItem.get().catch(() => null);
  const storedUser = userItem.get().catch(() => null);
  const url = tab.then((t) => t?.url || t?.pendingUrl || null);

  const page = (async (): Promise<PageState> => {
    const [t, pageUrl] = await Promise.all([tab, url]);
    if (!t || !pageUrl) return { kind: 'no-tab' };
    if (!isWebUrl(pageUrl)) return { kind: 'unsaveable', url: pageUrl };
    const [book, last, user] = await Promise.all([drafts, lastCollectionId, storedUser]);
    return {
      kind: 'page',
      page: { url: pageUrl, title: t.title ?? '' },
      draft: book.get(pageUrl),
      lastCollectionId: last,
      signedInHint: user !== null,
      drafts: book,
    };
  })();

  return {
    page,
    account: settle(send('getAccount', {})),
    lookup: settle(url.then((u) => (u && isWebUrl(u) ? send('lookupUrl', { url: u }).then((r) => r.bookmark) : null))),
    tags: settle(send('listTags', {})),
    collections: settle(send('listCollections', {})),
  };
}
