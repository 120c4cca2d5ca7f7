import * as z from 'zod/mini';
import { STORAGE_QUOTA_BYTES } from '../api/covers.ts';
import { SaveOwner, sameAccount } from './background-items.ts';
import { typedItem } from './typed-item.ts';
import { lazySchema } from '../api/lazy-schema.ts';

/**
 * Automatic covers: the user's setting, what they have used of their share, and the covers waiting to be uploaded.
 * The API shows no storage usage, so the extension counts what its own automatic covers uploaded (per account).
 */

/** The shares of the 500 MB quota the options page offers, in percent. */
export const COVER_SHARES = [5, 10, 20, 50] as const;

export const AutoCoverSettings = lazySchema(() => z.object({
  /** null: the plan's default (on for Pro, off for free) until the user chooses. */
  enabled: z.nullable(z.boolean()),
  sharePercent: z.int().check(z.minimum(1), z.maximum(100)),
}));
export type AutoCoverSettings = z.infer<typeof AutoCoverSettings>;
export const autoCoverSettingsItem = typedItem('local:autoCoverSettings', AutoCoverSettings, {
  fallback: { enabled: null, sharePercent: 10 },
  onInvalid: 'fallback',
});

/** Whether covers are added: the user's choice, else the plan's default. */
export const autoCoversOn = (settings: AutoCoverSettings, plan: string | undefined): boolean => settings.enabled ?? plan === 'pro';

export const shareBytes = (percent: number): number => Math.floor((STORAGE_QUOTA_BYTES * percent) / 100);

export const AutoCoverUsage = lazySchema(() => z.object({
  owner: SaveOwner,
  bytes: z.int().check(z.minimum(0)),
  covers: z.int().check(z.minimum(0)),
  /** Why automatic covers stopped: their share is used up, or the server said the account's storage is full (for good, until the user starts them again). */
  stopped: z.nullable(z.enum(['share', 'storage-full'])),
}));
export type AutoCoverUsage = z.infer<typeof AutoCoverUsage>;
export const autoCoverUsageItem = typedItem('local:autoCoverUsage', z.array(AutoCoverUsage), { fallback: [], onInvalid: 'fallback' });

export const usageOf = (all: AutoCoverUsage[], owner: Pick<SaveOwner, 'serverUrl' | 'userId'>): AutoCoverUsage | null =>
  all.find((u) => sameAccount(u.owner, owner)) ?? null;

/**
 * A cover ready to upload, for a bookmark just saved: its bytes (as base64, a few tens of KB) kept so that a
 * retry after a worker restart needs the page no more.
 */
export const PendingCover = lazySchema(() => z.object({
  owner: SaveOwner,
  bookmarkId: z.string(),
  base64: z.string(),
  type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
  attempts: z.int().check(z.minimum(0)),
  nextAttemptAt: z.number(),
}));
export type PendingCover = z.infer<typeof PendingCover>;
export const pendingCoversItem = typedItem('local:pendingCovers', z.array(PendingCover), { fallback: [], onInvalid: 'fallback' });
