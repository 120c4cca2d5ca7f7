import type { RequestScheduler } from '../../lib/client/scheduler.ts';
import type { DuplicatesView } from '../../lib/messaging/library-replies.ts';
import type { Account } from './account.ts';

/** The duplicate groups as the scheduler sees them: a heavy endpoint (two a minute), asked for by the user. */
const FIND = { priority: 'user', heavy: 'duplicates' } as const;

/**
 * The API's duplicate groups. GET /bookmarks/duplicates is a heavy endpoint,
 * so it is sent only when the scheduler has room for it at once (refused
 * unsent otherwise, with when there is room: the page waits, not the
 * background), and each answer says when the next one may go.
 */
export class Duplicates {
  constructor(
    private account: Account,
    private scheduler: Pick<RequestScheduler, 'waitBefore'>,
  ) {}

  async find(): Promise<DuplicatesView> {
    const { groups } = await (await this.account.client()).call('duplicates', { priority: FIND.priority, maxWaitMs: 0 });
    return { groups, fetchedAt: Date.now(), nextCheckAt: await this.nextCheckAt() };
  }

  /** When the next search may be sent (epoch ms); null: now. */
  async nextCheckAt(): Promise<number | null> {
    const wait = await this.scheduler.waitBefore(FIND);
    return wait > 0 ? Date.now() + wait : null;
  }
}
