import type { BookmarkStats, DomainCount } from '../../lib/api/bookmarks.ts';
import type { BrowsePage } from '../../lib/messaging/library-replies.ts';
import { FIND_PAGE, type FindSource } from '../../lib/search/find-source.ts';
import type { Account } from './account.ts';

/** What a search reads besides the API's text search, and the Sites and Overview views' counts. */
export class Find {
  constructor(private account: Account) {}

  /** A page of GET /bookmarks with the API's filters, or a tag's bookmarks (one answer: the API gives them no cursor). */
  async page(source: FindSource): Promise<BrowsePage> {
    const client = await this.account.client();
    if (source.kind === 'tag') {
      const list = await client.call('tagBookmarksById', { params: { id: source.id }, query: { limit: String(FIND_PAGE) } });
      return { bookmarks: list.bookmarks, cursor: null, limitNote: null };
    }
    const { collectionId, domain, isFavorite, linkStatus, type } = source.filter;
    const query = {
      limit: String(FIND_PAGE),
      sortBy: 'newest' as const,
      ...(collectionId !== undefined && { collectionId }),
      ...(domain !== undefined && { domain }),
      ...(isFavorite && { isFavorite: 'true' as const }),
      ...(linkStatus && { linkStatus: linkStatus.join(',') }),
      ...(type !== undefined && { type }),
      ...(source.cursor !== undefined && { cursor: source.cursor }),
    } as const;
    const list = await client.call('listBookmarks', { query });
    return { bookmarks: list.data, cursor: list.hasMore ? list.cursor : null, limitNote: null };
  }

  async domains(): Promise<DomainCount[]> {
    return (await this.account.client()).call('domains');
  }

  async stats(): Promise<BookmarkStats> {
    return (await this.account.client()).call('stats');
  }
}
