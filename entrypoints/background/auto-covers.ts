import type { browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type ClientError, toClientError } from '../../lib/client/errors.ts';
import type { CardCover } from '../../lib/image/card-cover.ts';
import {
  type AutoCoverUsage,
  type PendingCover,
  autoCoverSettingsItem,
  autoCoverUsageItem,
  autoCoversOn,
  pendingCoversItem,
  shareBytes,
  usageOf,
} from '../../lib/storage/auto-cover-items.ts';
import { type SaveOwner, sameAccount } from '../../lib/storage/background-items.ts';
import { userItem } from '../../lib/storage/items.ts';
import type { Account } from './account.ts';
import { uploadCover } from './covers.ts';
import { shouldQueue } from './save-queue.ts';

/** Wakes the worker when a waiting cover is due. */
export const AUTO_COVER_ALARM = 'shelf-auto-covers';

const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 30 * 60_000;
/** A cover that failed this often is given up: the bookmark keeps its placeholder. */
const MAX_ATTEMPTS = 8;

export interface AutoCoverDeps {
  account: Account;
  /** A cover for the page in the tab (its preview image, else a capture), made now while the tab shows it. */
  coverOfTab(tabId: number): Promise<CardCover | null>;
  /** Asks for drain() at `at` (an alarm: a stopped worker wakes for it). */
  wakeAt(at: number): void;
}

const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
const sizeOf = (pending: PendingCover): number => Math.floor((pending.base64.length * 3) / 4) - (pending.base64.match(/=*$/)?.[0].length ?? 0);

/**
 * Covers for new bookmarks, made at save time and uploaded after it: the save is one request and answers at
 * once; the cover follows as background work, one at a time, within the share of storage the user allows, retried
 * with backoff when the server cannot take it now, and stopped for good when the account's storage is full.
 * What automatic covers uploaded is counted per account (the API shows no usage).
 */
export class AutoCovers {
  private draining: Promise<void> | null = null;
  private again = false;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private deps: AutoCoverDeps) {}

  /**
   * After a save that made a new bookmark from the page in `tabId`. Never throws: a page without a cover is
   * still saved. Answers once the cover is queued (or not made); its upload goes on behind.
   */
  async afterSave(bookmark: Bookmark, tabId: number): Promise<void> {
    try {
      const owner = await this.deps.account.owner();
      if (!owner || !(await this.wanted(owner))) return;
      if (!(await this.deps.account.isPro())) return;
      const cover = await this.deps.coverOfTab(tabId);
      if (!cover) return;
      const pending: PendingCover = { owner, bookmarkId: bookmark.id, base64: toBase64(cover.bytes), type: cover.type, attempts: 0, nextAttemptAt: Date.now() };
      if (!(await this.fits(owner, cover.bytes.byteLength))) return;
      await this.changePending((all) => [...all, pending]);
      void this.drain();
    } catch (err) {
      console.warn('Shelf: no automatic cover for this page', err);
    }
  }

  /** On, and not stopped, for this account. */
  private async wanted(owner: SaveOwner): Promise<boolean> {
    const [settings, user, usage] = await Promise.all([autoCoverSettingsItem.get(), userItem.get(), autoCoverUsageItem.get()]);
    return autoCoversOn(settings, user?.plan) && !usageOf(usage, owner)?.stopped;
  }

  /** Whether `bytes` more fit the share, counting what was uploaded and what waits; when not, covers stop for the share. */
  private async fits(owner: SaveOwner, bytes: number): Promise<boolean> {
    const [{ sharePercent }, usage, pending] = await Promise.all([autoCoverSettingsItem.get(), autoCoverUsageItem.get(), pendingCoversItem.get()]);
    const waiting = pending.filter((p) => sameAccount(p.owner, owner)).reduce((sum, p) => sum + sizeOf(p), 0);
    if ((usageOf(usage, owner)?.bytes ?? 0) + waiting + bytes <= shareBytes(sharePercent)) return true;
    await this.changeUsage(owner, (u) => ({ ...u, stopped: 'share' }));
    return false;
  }

  /** Uploads the signed-in account's waiting covers that are due, oldest first. */
  drain(): Promise<void> {
    if (this.draining) {
      // A cover queued while a drain is under way goes in that drain's next pass.
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        await this.drainOnce();
      } while (this.again);
    })().finally(() => (this.draining = null));
    return this.draining;
  }

  private async drainOnce(): Promise<void> {
    const owner = await this.deps.account.owner();
    if (!owner) return;
    for (const pending of await pendingCoversItem.get()) {
      if (!sameAccount(pending.owner, owner)) continue;
      if (pending.nextAttemptAt > Date.now()) {
        this.deps.wakeAt(pending.nextAttemptAt);
        continue;
      }
      if (!(await this.attempt(owner, pending))) return;
    }
  }

  /** One upload; false when the rest should wait (the server cannot take covers now, or never will). */
  private async attempt(owner: SaveOwner, pending: PendingCover): Promise<boolean> {
    const same = (p: PendingCover) => p.bookmarkId === pending.bookmarkId && sameAccount(p.owner, owner);
    try {
      const client = await this.deps.account.client(owner);
      await uploadCover(client, pending.bookmarkId, { bytes: fromBase64(pending.base64), type: pending.type }, 'background');
      await this.changePending((all) => all.filter((p) => !same(p)));
      await this.changeUsage(owner, (u) => ({ ...u, bytes: u.bytes + sizeOf(pending), covers: u.covers + 1 }));
      return true;
    } catch (err) {
      const error = toClientError(err);
      if (error.code === 'STORAGE_LIMIT_REACHED') {
        // For good: every cover would be refused until the user frees storage and starts them again.
        await this.changePending((all) => all.filter((p) => !sameAccount(p.owner, owner)));
        await this.changeUsage(owner, (u) => ({ ...u, stopped: 'storage-full' }));
        return false;
      }
      if (error.code === 'API_ACCESS_PRO_REQUIRED') await this.deps.account.lostPro();
      const attempts = pending.attempts + 1;
      if (!retryable(error) || attempts >= MAX_ATTEMPTS) {
        if (error.code !== 'NOT_FOUND') console.warn('Shelf: an automatic cover was given up', error);
        await this.changePending((all) => all.filter((p) => !same(p)));
        return error.code !== 'API_ACCESS_PRO_REQUIRED';
      }
      const nextAttemptAt = Date.now() + Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
      await this.changePending((all) => all.map((p) => (same(p) ? { ...p, attempts, nextAttemptAt } : p)));
      this.deps.wakeAt(nextAttemptAt);
      return false;
    }
  }

  private changePending(edit: (all: PendingCover[]) => PendingCover[]): Promise<void> {
    return this.write(async () => pendingCoversItem.set(edit(await pendingCoversItem.get())));
  }

  private changeUsage(owner: SaveOwner, edit: (usage: AutoCoverUsage) => AutoCoverUsage): Promise<void> {
    return this.write(async () => {
      const all = await autoCoverUsageItem.get();
      const current = usageOf(all, owner) ?? { owner, bytes: 0, covers: 0, stopped: null };
      await autoCoverUsageItem.set([...all.filter((u) => !sameAccount(u.owner, owner)), edit(current)]);
    });
  }

  private write(change: () => Promise<void>): Promise<void> {
    const run = this.writes.then(change);
    this.writes = run.catch(() => undefined);
    return run;
  }
}

/** What a later attempt can get past, as for saves; the account's 5 waiting reservations expire within 15 minutes. */
const retryable = (error: ClientError): boolean => shouldQueue(error) || error.code === 'TOO_MANY_PENDING_UPLOADS' || error.code === 'RESERVATION_INVALID';

/** Covers that waited (a failed upload, a worker that stopped) go at every start and when their alarm rings. */
export function setupAutoCoverRetry(browserApi: typeof browser, autoCovers: AutoCovers): void {
  const drain = () => void autoCovers.drain().catch((err: unknown) => console.warn('Shelf: waiting covers could not be sent', err));
  browserApi.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === AUTO_COVER_ALARM) drain();
  });
  drain();
}
