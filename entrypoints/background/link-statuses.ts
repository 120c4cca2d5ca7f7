import type { LinkStatus, LinkStatusCount } from '../../lib/api/bookmarks.ts';
import type { BrowsePage } from '../../lib/messaging/library-replies.ts';
import type { Account } from './account.ts';

/** As many rows as the Broken links lists show at a time. */
const PAGE_SIZE = '100';

/** What the server's link checker found: how many bookmarks have each status, and those of one status a page at a time. */
export class LinkStatuses {
  constructor(private account: Account) {}

  async counts(): Promise<LinkStatusCount[]> {
    return (await this.account.client()).call('linkStatuses');
  }

  async page(linkStatus: LinkStatus, cursor: string | undefined): Promise<BrowsePage> {
    const query = { linkStatus, limit: PAGE_SIZE, sortBy: 'newest', ...(cursor !== undefined && { cursor }) } as const;
    const page = await (await this.account.client()).call('listBookmarks', { query });
    return { bookmarks: page.data, cursor: page.hasMore ? page.cursor : null, limitNote: null };
  }
}
