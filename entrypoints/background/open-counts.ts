import { ClientError } from '../../lib/client/errors.ts';
import { type PendingOpen, type SaveOwner, pendingOpensItem, sameAccount } from '../../lib/storage/background-items.ts';
import type { Account } from './account.ts';

/** How long opens of one bookmark are gathered before they go, as one request. */
export const OPEN_COUNT_DELAY_MS = 30_000;
/** The API's largest clickCount. */
const MAX_CLICK_COUNT = 1_000_000_000;

/**
 * Opens of bookmarks from Shelf, added to each bookmark's clickCount on the server. The API takes only an absolute
 * count, so each send reads the bookmark first and writes what it read plus the opens gathered: a count another
 * device raised meanwhile is kept (see docs/api-decisions.md). Both requests are background work: they never take a
 * slot from what the user waits for. Pending opens live in storage, so a restarted worker loses none.
 */
export class OpenCounts {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Storage changes one at a time: an open recorded during a send is neither lost nor sent twice. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private account: Account,
    private delayMs = OPEN_COUNT_DELAY_MS,
  ) {}

  /** One open of a bookmark of the signed-in account; it goes with the others of the next send. */
  async record(id: string): Promise<void> {
    const owner = await this.account.owner();
    if (!owner) return;
    const same = (p: PendingOpen) => p.id === id && sameAccount(p.owner, owner);
    // A new array, never the one read: the stored value is not changed in place.
    await this.change((pending) =>
      pending.some(same) ? pending.map((p) => (same(p) ? { ...p, count: p.count + 1 } : p)) : [...pending, { owner, id, count: 1, firstAt: Date.now() }],
    );
    this.schedule(this.delayMs);
  }

  /** After a worker start: opens kept from before go after the usual delay. */
  async resume(): Promise<void> {
    if ((await pendingOpensItem.get()).length > 0) this.schedule(this.delayMs);
  }

  /** Sends the signed-in account's pending opens now, one read and one write per bookmark. */
  async flush(): Promise<void> {
    this.cancel();
    const owner = await this.account.owner();
    if (!owner) return;
    const mine = (await pendingOpensItem.get()).filter((p) => sameAccount(p.owner, owner));
    for (const open of mine) {
      try {
        await this.send(open);
        await this.take(owner, open.id, open.count);
      } catch (err) {
        // Deleted for good: there is nothing left to count. Anything else is tried again later.
        if (err instanceof ClientError && err.code === 'NOT_FOUND') await this.take(owner, open.id, open.count);
        else {
          console.warn('Shelf: recording a bookmark’s opens failed', err);
          this.schedule(this.delayMs);
        }
      }
    }
  }

  private async send(open: PendingOpen): Promise<void> {
    const client = await this.account.client();
    const params = { id: open.id };
    const current = await client.call('getBookmark', { params, priority: 'background' });
    // Trashed since: the API refuses changes to it, and nothing is lost by not counting opens of a trashed page.
    if (current.deletedAt) return;
    const clickCount = Math.min(current.clickCount + open.count, MAX_CLICK_COUNT);
    await client.call('updateBookmark', { params, body: { clickCount }, priority: 'background' });
  }

  /** Removes what was sent, keeping opens recorded while it was under way. */
  private take(owner: SaveOwner, id: string, sent: number): Promise<void> {
    return this.change((pending) =>
      pending.flatMap((p) => (p.id === id && sameAccount(p.owner, owner) ? (p.count > sent ? [{ ...p, count: p.count - sent }] : []) : [p])),
    );
  }

  private change(edit: (pending: PendingOpen[]) => PendingOpen[]): Promise<void> {
    const next = this.writes.then(async () => pendingOpensItem.set(edit(await pendingOpensItem.get())));
    this.writes = next.catch(() => undefined);
    return next;
  }

  private schedule(ms: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
