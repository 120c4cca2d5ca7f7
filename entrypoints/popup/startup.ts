import { browser, type Browser } from 'wxt/browser';
import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import { type ClientError, toClientError } from '../../lib/client/errors.ts';
import type { AccountState, MessageOutput } from '../../lib/messaging/protocol.ts';
import { send } from '../../components/messenger.ts';
import { type Draft, type QuickSaveTarget, lastCollectionItem, quickSaveTargetItem, userItem } from '../../lib/storage/items.ts';
import { isWebPage } from '../../lib/tab-pages.ts';
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
  /** The tab showing it: a new bookmark's automatic cover is made from it. */
  tabId?: number;
}

/** The tab: all the form needs to show with Save working. */
export type PageState =
  | { kind: 'no-tab' }
  | { kind: 'unsaveable'; url: string }
  | {
      kind: 'page';
      page: TabPage;
      /** False only when storage had already said that no user is stored: the account is then very likely signed out, and the form waits for the background. */
      signedInHint: boolean;
    };

/** What this device kept for the page: read beside the tab, never waited for. */
export interface Kept {
  draft: Draft | null;
  lastCollectionId: string | null;
  /** Where the shortcut and the context menu save, said under the form. */
  quickSaveTarget: QuickSaveTarget;
  drafts: DraftBook;
}

export interface Startup {
  page: Promise<PageState>;
  kept: Promise<Kept>;
  account: Promise<Settled<AccountState>>;
  /** The page as saved and as it waits in the save queue; null when the page cannot be saved. */
  lookup: Promise<Settled<MessageOutput<'lookupUrl'> | null>>;
  tags: Promise<Settled<Tag[]>>;
  collections: Promise<Settled<Collection[]>>;
}

/** `popup.html?tabId=123` acts on that tab; anything else means the current window's active tab. */
export function tabIdFrom(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('tabId');
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

const urlOf = (tab: Browser.tabs.Tab | undefined): string | null => tab?.url || tab?.pendingUrl || null;

/** The tab the popup is for: the one it names (popup.html?tabId=), else the active tab of the popup's window. */
export async function findTab(tabId: number | undefined): Promise<Browser.tabs.Tab | undefined> {
  if (tabId !== undefined) return browser.tabs.get(tabId);
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab;
}

/**
 * Everything the popup needs, asked for at once. The tab alone decides the form,
 * so that Save works as soon as its URL is known; the local reads (draft, last
 * collection) and the background's answers (account, saved lookup, tags,
 * collections) fill in as they arrive.
 */
export function startPopup({ tabId, now = Date.now() }: { tabId?: number; now?: number } = {}): Startup {
  const tab = findTab(tabId).catch(() => undefined);
  const drafts = DraftBook.open(now).catch(() => DraftBook.empty());
  const lastCollectionId = lastCollectionItem.get().catch(() => null);
  const quickSaveTarget = quickSaveTargetItem.get().catch((): QuickSaveTarget => ({ kind: 'unsorted' }));
  let noUserStored = false;
  void userItem.get().then(
    (user) => {
      noUserStored = user === null;
    },
    () => undefined,
  );
  const url = tab.then(urlOf);

  const page = tab.then((t): PageState => {
    const pageUrl = urlOf(t);
    if (!t || !pageUrl) return { kind: 'no-tab' };
    if (!isWebPage(pageUrl)) return { kind: 'unsaveable', url: pageUrl };
    return { kind: 'page', page: { url: pageUrl, title: t.title ?? '', ...(t.id !== undefined && { tabId: t.id }) }, signedInHint: !noUserStored };
  });

  return {
    page,
    kept: Promise.all([drafts, lastCollectionId, quickSaveTarget, url]).then(([book, last, target, pageUrl]) => ({
      draft: pageUrl ? book.get(pageUrl) : null,
      lastCollectionId: last,
      quickSaveTarget: target,
      drafts: book,
    })),
    account: settle(send('getAccount', {})),
    lookup: settle(url.then((u) => (u && isWebPage(u) ? send('lookupUrl', { url: u }) : null))),
    tags: settle(send('listTags', {})),
    collections: settle(send('listCollections', {})),
  };
}
