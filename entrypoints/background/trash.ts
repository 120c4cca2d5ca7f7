import type { BookmarkPage } from '../../lib/api/bookmarks.ts';
import type { Account } from './account.ts';

/** A trash page as long as the options list shows at a time. */
const PAGE_SIZE = 100;

/** The trash: its bookmarks a page at a time, and the permanent deletes (the client refuses them, unsent, without `destructive`). */
export class Trash {
  constructor(private account: Account) {}

  async page(cursor: string | undefined): Promise<BookmarkPage> {
    return (await this.account.client()).call('listTrash', { query: { limit: String(PAGE_SIZE), ...(cursor !== undefined && { cursor }) } });
  }

  async deleteForever(id: string) {
    return (await this.account.client()).call('deleteBookmark', { params: { id } });
  }

  async empty() {
    return (await this.account.client()).call('emptyTrash');
  }
}
