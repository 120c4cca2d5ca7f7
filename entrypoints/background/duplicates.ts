import * as z from 'zod/mini';
import { DuplicateGroup, DuplicatesResultOutline } from '../../lib/api/bookmarks.ts';
import { ClientError } from '../../lib/client/errors.ts';
import type { RequestScheduler } from '../../lib/client/scheduler.ts';
import type { DuplicatesView } from '../../lib/messaging/library-replies.ts';
import type { Account } from './account.ts';

/** The duplicate groups as the scheduler sees them: a heavy endpoint (two a minute), asked for by the user. */
const FIND = { priority: 'user', heavy: 'duplicates' } as const;
/** Groups in the first reply: more than a tall window shows (a group is 300 px high) with the view's overscan. */
export const FIRST_GROUPS = 8;
/** Searches whose rest is kept for moreDuplicates: two pages (the options page and the side panel) may search at once. */
const KEPT = 2;
/** How long a search started for an opening Duplicates view waits for the page to ask for it: its early script asks as it loads. */
export const OPENING_CLAIM_MS = 10_000;
const Groups = z.array(DuplicateGroup);

/**
 * The API's duplicate groups. GET /bookmarks/duplicates is a heavy endpoint,
 * so it is sent only when the scheduler has room for it at once (refused
 * unsent otherwise, with when there is room: the page waits, not the
 * background), and each answer says when the next one may go. A page gets the
 * first screen's groups first and the rest from the answer kept here; each
 * group is checked against the API's schema when it is handed out, so the
 * first screen does not wait for the check of all 500.
 */
export class Duplicates {
  private kept = new Map<number, unknown[]>();
  /** The search started for an opening view (startForOpening), until a page's ask takes it. */
  private opening: { startedAt: number; answer: Promise<DuplicatesView> } | undefined;

  constructor(
    private account: Pick<Account, 'client'>,
    private scheduler: Pick<RequestScheduler, 'waitBefore'>,
  ) {}

  /**
   * Starts the search for a tab that begins to load the Duplicates view, before the page can ask (its early script
   * runs once the page's document is there, 100-500 ms later on a loaded machine): the page's first ask then takes
   * this search instead of sending another. One at a time: while one waits for its page, another tab's page sends
   * its own, so that no more searches are sent than the pages ask for.
   */
  startForOpening(): void {
    if (this.waitingOpening()) return;
    const opening = { startedAt: Date.now(), answer: this.search() };
    // A search that failed before the page asked is not handed over: the page sends its own (it may be signed in by then).
    opening.answer.catch(() => {
      if (this.opening === opening) this.opening = undefined;
    });
    this.opening = opening;
  }

  /** The search started for an opening view if no page took it yet, else a new search. */
  find(): Promise<DuplicatesView> {
    const opening = this.waitingOpening();
    this.opening = undefined;
    return opening?.answer ?? this.search();
  }

  private waitingOpening() {
    return this.opening && Date.now() - this.opening.startedAt < OPENING_CLAIM_MS ? this.opening : undefined;
  }

  private async search(): Promise<DuplicatesView> {
    const { groups } = await (await this.account.client()).callShaped('duplicates', DuplicatesResultOutline, { priority: FIND.priority, maxWaitMs: 0 });
    const first = checked(groups.slice(0, FIRST_GROUPS));
    let fetchedAt = Date.now();
    // Two answers in one millisecond (two pages): each keeps its own rest.
    while (this.kept.has(fetchedAt)) fetchedAt++;
    this.kept.set(fetchedAt, groups);
    for (const old of [...this.kept.keys()].slice(0, -KEPT)) this.kept.delete(old);
    return { groups: first, total: groups.length, fetchedAt, nextCheckAt: await this.nextCheckAt() };
  }

  /** The groups of the search answered at `fetchedAt` from `from` on; SEARCH_GONE once the background no longer holds it (it restarted, or newer searches replaced it). */
  more(fetchedAt: number, from: number): DuplicateGroup[] {
    const groups = this.kept.get(fetchedAt);
    if (!groups) throw new ClientError('SEARCH_GONE', 'The rest of this duplicate search is no longer held');
    return checked(groups.slice(from));
  }

  /** When the next search may be sent (epoch ms); null: now. */
  async nextCheckAt(): Promise<number | null> {
    const wait = await this.scheduler.waitBefore(FIND);
    return wait > 0 ? Date.now() + wait : null;
  }
}

/** Groups of the server's answer as the API promises them, or the error an answer of another shape is. */
function checked(groups: unknown[]): DuplicateGroup[] {
  const parsed = Groups.safeParse(groups);
  if (!parsed.success) throw new ClientError('MALFORMED_RESPONSE', "The server's answer to duplicates was not what the API promises");
  return parsed.data;
}
