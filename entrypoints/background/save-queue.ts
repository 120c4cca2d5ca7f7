import { type ClientError, type ClientErrorCode, toClientError } from '../../lib/client/errors.ts';
import type { HeldSaves } from '../../lib/messaging/library-replies.ts';
import type { QueuedSaveInfo } from '../../lib/messaging/replies.ts';
import { type QueuedSave, type SaveOwner, sameAccount, saveQueueItem } from '../../lib/storage/background-items.ts';
import { normaliseUrl } from '../../lib/url.ts';
import { rememberedItem } from '../../lib/storage/typed-item.ts';
import { isOwnBudgetWait } from '../../lib/client/scheduler.ts';
import type { Account } from './account.ts';
import type * as z from 'zod/mini';

/** Failures a later attempt can get past: the save waits in the queue. */
const TRANSIENT: ReadonlySet<ClientErrorCode> = new Set(['NETWORK_ERROR', 'RATE_LIMITED', 'IP_BLOCKED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE', 'IDEMPOTENCY_KEY_IN_USE']);
/** The server refused the token: only a new sign-in gets past it, and the save waits for one. */
const TOKEN: ReadonlySet<ClientErrorCode> = new Set(['MISSING_TOKEN', 'INVALID_TOKEN', 'TOKEN_REVOKED', 'TOKEN_EXPIRED']);

const FIRST_RETRY_MS = 15_000;
const LONGEST_RETRY_MS = 5 * 60_000;

/**
 * Whether a failed save should wait in the queue. A 5xx, or an answer that is
 * not the API's from a 2xx or 5xx (a proxy's error page, a cut body), may hide a
 * save that was made: the retry's Idempotency-Key makes sure it is made once.
 */
export function shouldQueue(error: ClientError): boolean {
  const status = error.status ?? 0;
  if (TRANSIENT.has(error.code) || TOKEN.has(error.code) || status >= 500) return true;
  return error.code === 'MALFORMED_RESPONSE' && (status < 400 || status >= 500);
}

const samePage = (save: QueuedSave, owner: SaveOwner, key: string) => sameAccount(save.owner, owner) && normaliseUrl(save.body.url) === key;

const backoff = (attempts: number) => Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));

export interface SaveQueueDeps {
  /** Sends a save as every save goes (never overwriting a bookmark it did not know of); the index and icons follow. */
  send(save: QueuedSave): Promise<unknown>;
  /** The queue changed (the icon shows how many wait). */
  onChange(): void;
}

/**
 * Saves the server has not confirmed, in storage, each with the Idempotency-Key
 * of its first attempt so that a save whose answer was lost is never made twice.
 * One drain at a time sends them oldest first; a failure the server may get over
 * stops the drain until the next try (an alarm, the browser coming online, a sign-in).
 * Each save belongs to the account that made it (server and user) and goes only
 * with that account's token: after a sign-out, or a sign-in as another account,
 * it is held until that account signs in again or the user discards it.
 */
export class SaveQueue {
  private draining: Promise<void> | null = null;
  private again = false;
  /** URL key → the last task for that page: a save from the popup and a queued one for the same page never overlap. */
  private pages = new Map<string, Promise<unknown>>();
  private writes: Promise<unknown> = Promise.resolve();
  /** The queue in this background's memory: a burst of saves reads it a few times a save. */
  private queue = rememberedItem(saveQueueItem);

  constructor(
    private account: Account,
    private deps: SaveQueueDeps,
  ) {}

  /** The signed-in account's saves; none when signed out. */
  async list(): Promise<QueuedSave[]> {
    const [owner, saves] = await Promise.all([this.account.owner(), this.queue.get()]);
    return owner === null ? [] : saves.filter((s) => sameAccount(s.owner, owner));
  }

  /** The saves of every account but the signed-in one, by account: they wait for it to sign in again. */
  async held(): Promise<z.infer<typeof HeldSaves>> {
    const [owner, saves] = await Promise.all([this.account.owner(), this.queue.get()]);
    const held: z.infer<typeof HeldSaves> = [];
    for (const save of saves) {
      if (owner !== null && sameAccount(save.owner, owner)) continue;
      const group = held.find((h) => sameAccount(h.owner, save.owner));
      if (group) group.count++;
      else held.push({ owner: save.owner, count: 1 });
    }
    return held;
  }

  /** The user gave up the saves held for an account; the signed-in account's own are not touched. */
  async discardHeld(account: Pick<SaveOwner, 'serverUrl' | 'userId'>): Promise<void> {
    const owner = await this.account.owner();
    if (owner !== null && sameAccount(owner, account)) return;
    await this.update((saves) => saves.filter((s) => !sameAccount(s.owner, account)));
  }

  /** The page's save of `owner` (the signed-in account's when not given). */
  async forUrl(url: string, owner?: SaveOwner): Promise<QueuedSave | null> {
    const key = normaliseUrl(url);
    const saves = owner ? (await this.queue.get()).filter((s) => sameAccount(s.owner, owner)) : await this.list();
    return saves.find((s) => normaliseUrl(s.body.url) === key) ?? null;
  }

  /** As the pages show it. */
  async info(save: QueuedSave): Promise<z.infer<typeof QueuedSaveInfo>> {
    const waiting = (await this.queue.get()).filter((s) => !s.refused && sameAccount(s.owner, save.owner)).length;
    // No error on a save that is not refused: it waits for this extension's own request budget, until nextAttemptAt.
    const goesInSeconds = save.error === null && !save.refused ? Math.max(1, Math.ceil((save.nextAttemptAt - Date.now()) / 1000)) : null;
    return { body: save.body, error: save.error, refused: save.refused, waiting, goesInSeconds };
  }

  /** Runs `task` once every earlier task for this page has finished. */
  exclusive<T>(url: string, task: () => Promise<T>): Promise<T> {
    const key = normaliseUrl(url);
    const run = (this.pages.get(key) ?? Promise.resolve()).then(task, task);
    const tail = run.catch(() => undefined);
    this.pages.set(key, tail);
    void tail.then(() => this.pages.get(key) === tail && this.pages.delete(key));
    return run;
  }

  /** The page's save, in place of any earlier one of its account for it: an edit of a waiting save changes the waiting request. */
  put(save: QueuedSave): Promise<void> {
    const key = normaliseUrl(save.body.url);
    return this.update((saves) => [...saves.filter((s) => !samePage(s, save.owner, key)), save]);
  }

  /** A failed attempt of a new save: queued when a retry may succeed. */
  queueFailure(save: Pick<QueuedSave, 'owner' | 'body' | 'edits' | 'key' | 'quick'>, error: ClientError, attempts: number): Promise<void> {
    return this.put({ ...save, queuedAt: Date.now(), attempts, ...nextTry(error, attempts), refused: false });
  }

  remove(owner: SaveOwner, url: string): Promise<void> {
    const key = normaliseUrl(url);
    return this.update((saves) => saves.filter((s) => !samePage(s, owner, key)));
  }

  /** Sends what is due (everything when `all`: the browser is back online, the user signed in, the server answered again). */
  drain(all = false): Promise<void> {
    if (this.draining) {
      this.again ||= all;
      return this.draining;
    }
    this.draining = (async () => {
      let force = all;
      do {
        this.again = false;
        await this.drainOnce(force);
        force = this.again;
      } while (this.again);
    })().finally(() => (this.draining = null));
    return this.draining;
  }

  /** The signed-in account's saves only: another account's are never sent with this one's token. */
  private async drainOnce(all: boolean): Promise<void> {
    for (const listed of await this.list()) {
      if (listed.refused || (!all && listed.nextAttemptAt > Date.now())) continue;
      const goOn = await this.exclusive(listed.body.url, async () => {
        // Read again under the page's lock: the user may have saved or edited it meanwhile.
        const save = await this.forUrl(listed.body.url, listed.owner);
        return save === null || save.refused ? true : this.attempt(save);
      });
      if (!goOn) return;
    }
  }

  /** One attempt of one queued save; false when the queue should stop until its next try. */
  private async attempt(save: QueuedSave): Promise<boolean> {
    try {
      // Refused unsent (NOT_SIGNED_IN) when another account signed in meanwhile.
      await this.deps.send(save);
      await this.update((saves) => saves.filter((s) => s.key !== save.key));
      return true;
    } catch (err) {
      const error = toClientError(err);
      // Signed out, or in as another account, meanwhile: the saves wait, untouched, for their account.
      if (error.code === 'NOT_SIGNED_IN') return false;
      const attempts = save.attempts + 1;
      const queued = shouldQueue(error);
      const next = { ...save, attempts, ...nextTry(error, attempts), refused: !queued };
      await this.update((saves) => saves.map((s) => (s.key === save.key ? next : s)));
      // A refusal is this save's alone; anything else (server down, token refused) would stop the next one too.
      return !queued;
    }
  }

  private update(change: (saves: QueuedSave[]) => QueuedSave[]): Promise<void> {
    const run = this.writes.then(async () => {
      await this.queue.set(change(await this.queue.get()));
      this.deps.onChange();
    });
    this.writes = run.catch(() => undefined);
    return run;
  }
}

const plain = (error: ClientError): QueuedSave['error'] => ({ code: error.code, message: error.message });

/**
 * When a failed attempt is tried again, and why it failed. A save held back by the extension's own request
 * budget failed at nothing: it goes when the budget has room, and keeps no error to show.
 */
function nextTry(error: ClientError, attempts: number): Pick<QueuedSave, 'nextAttemptAt' | 'error'> {
  if (isOwnBudgetWait(error)) return { nextAttemptAt: Date.now() + error.retryAfterSeconds * 1000, error: null };
  return { nextAttemptAt: Date.now() + backoff(attempts), error: plain(error) };
}
