import type { BrowsePage } from '../../lib/messaging/library-replies.ts';
import type { Account } from './account.ts';

/** A trash page as long as the options list shows at a time. */
const PAGE_SIZE = 100;

/** The trash: its bookmarks a page at a time, and the permanent deletes (the client refuses them, unsent, without `destructive`). */
export class Trash {
  constructor(private account: Account) {}

  async page(cursor: string | undefined): Promise<BrowsePage> {
    const page = await (await this.account.client()).call('listTrash', { query: { limit: String(PAGE_SIZE), ...(cursor !== undefined && { cursor }) } });
    return { bookmarks: page.data, cursor: page.hasMore ? page.cursor : null, limitNote: null };
  }

  async deleteForever(id: string): Promise<{ success: boolean }> {
    const { deleted } = await (await this.account.client()).call('deleteBookmark', { params: { id } });
    return { success: deleted };
  }

  async empty() {
    return (await this.account.client()).call('emptyTrash');
  }
}
