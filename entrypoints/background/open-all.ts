import type { browser } from 'wxt/browser';
import type { OpenAllReply } from '../../lib/messaging/library-replies.ts';
import { MAX_OPEN_ALL, type OpenAllRequest } from '../../lib/messaging/library-requests.ts';
import { isWebPage } from '../../lib/tab-pages.ts';
import type { Account } from './account.ts';
import type { OpenCounts } from './open-counts.ts';

interface Opened {
  id: string;
  url: string;
}

/**
 * Open all: bookmarks opened together as the tabs of a new window, each open counted as a single open from Shelf
 * is (its "Times opened"). A collection is read here, the first MAX_OPEN_ALL of it; the page asked the user first.
 */
export class OpenAll {
  constructor(
    private browserApi: typeof browser,
    private account: Account,
    private opens: OpenCounts,
  ) {}

  async open(request: OpenAllRequest): Promise<OpenAllReply> {
    const { bookmarks, more } = request.kind === 'bookmarks' ? { bookmarks: request.bookmarks, more: false } : await this.collection(request.id);
    // Only web pages: a window cannot be opened on any other address from an extension.
    const pages = bookmarks.filter((b) => isWebPage(b.url));
    if (pages.length > 0) {
      await this.browserApi.windows.create({ url: pages.map((b) => b.url) });
      for (const b of pages) await this.opens.record(b.id);
    }
    return { opened: pages.length, more };
  }

  /** The collection's first MAX_OPEN_ALL bookmarks: one page of its list, the API's largest. */
  private async collection(id: string): Promise<{ bookmarks: Opened[]; more: boolean }> {
    const page = await (await this.account.client()).call('collectionBookmarks', { params: { id }, query: { limit: String(MAX_OPEN_ALL) } });
    return { bookmarks: page.bookmarks.map((b) => ({ id: b.id, url: b.url })), more: page.continueCursor !== null };
  }
}
