import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState } from 'react';
import { browser } from 'wxt/browser';
import {
  type AutoCoverSettings,
  type AutoCoverUsage,
  COVER_SHARES,
  autoCoverSettingsItem,
  autoCoverUsageItem,
  autoCoversOn,
  shareBytes,
  usageOf,
} from '../../../lib/storage/auto-cover-items.ts';
import { inputClass, labelClass, secondaryButtonClass } from '../../field-styles.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';

const megabytes = (bytes: number): string => `${bytes >= 10 * 1024 * 1024 || bytes === 0 ? Math.round(bytes / 1024 / 1024) : (bytes / 1024 / 1024).toFixed(1)} MB`;

/** The stored setting and usage, read again whenever the background changes them (a cover uploaded, a stop). */
function useStored(): { settings: AutoCoverSettings | null; usage: AutoCoverUsage[] | null } {
  const [settings, setSettings] = useState<AutoCoverSettings | null>(null);
  const [usage, setUsage] = useState<AutoCoverUsage[] | null>(null);
  const read = useCallback(() => {
    void autoCoverSettingsItem.get().then(setSettings);
    void autoCoverUsageItem.get().then(setUsage);
  }, []);
  useEffect(() => {
    read();
    browser.storage.onChanged.addListener(read);
    return () => browser.storage.onChanged.removeListener(read);
  }, [read]);
  return { settings, usage };
}

/** What automatic covers have used, or why they stopped, in one sentence. */
function statusOf(usage: AutoCoverUsage | null, share: number): string {
  const used = usage?.bytes ?? 0;
  const covers = usage?.covers ?? 0;
  if (usage?.stopped === 'storage-full') return 'Stopped: your 500 MB of cover storage is full. Remove some covers, then start automatic covers again.';
  if (usage?.stopped === 'share') return `Stopped: automatic covers have used their share (${megabytes(used)} of ${megabytes(share)}). Choose a larger share to go on.`;
  return `Automatic covers have used ${megabytes(used)} of ${megabytes(share)} (${covers} ${covers === 1 ? 'cover' : 'covers'}).`;
}

/**
 * Covers: whether new bookmarks get a cover at save time (the page's preview image, or a picture of the visible
 * page), how much of the account's cover storage those may take, and what they have used.
 */
export function AutoCoversSection() {
  const id = useId();
  const account = useQuery({ queryKey: keys.account, queryFn: () => sendLibrary('getAccount', {}) });
  const { settings, usage } = useStored();
  const user = account.data?.signedIn ? account.data.user : null;
  const mine = user && account.data && usage ? usageOf(usage, { serverUrl: account.data.serverUrl, userId: user.userId }) : null;

  const change = async (next: Partial<AutoCoverSettings>) => {
    if (!settings) return;
    const updated = { ...settings, ...next };
    await autoCoverSettingsItem.set(updated);
    // A share that now has room again: covers go on.
    if (mine?.stopped === 'share' && mine.bytes < shareBytes(updated.sharePercent)) await restart();
  };

  /** Clears the stop: the next new bookmark gets its cover again (the server says again if storage is still full). */
  const restart = async () => {
    if (!mine) return;
    const all = await autoCoverUsageItem.get();
    await autoCoverUsageItem.set(all.map((u) => (u === usageOf(all, mine.owner) ? { ...u, stopped: null } : u)));
  };

  if (!settings || account.isPending) return <p role="status">Loading…</p>;
  const on = autoCoversOn(settings, user?.plan);
  const share = shareBytes(settings.sharePercent);
  return (
    <div className="space-y-4">
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5" checked={on} onChange={(event) => void change({ enabled: event.target.checked })} />
        <span>
          Add a cover to new bookmarks
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">
            The page’s preview image where Shelf may read it, otherwise a picture of the visible part of the page, made small (about 25 KB). Covers need the Pro
            plan{user && user.plan !== 'pro' ? ': this account is on the free plan' : ''}.
          </span>
        </span>
      </label>
      <div className="space-y-1">
        <label htmlFor={`${id}-share`} className={labelClass}>
          Share of cover storage automatic covers may use
        </label>
        <select
          id={`${id}-share`}
          className={`${inputClass} w-auto`}
          value={settings.sharePercent}
          onChange={(event) => void change({ sharePercent: Number(event.target.value) })}
        >
          {[...new Set<number>([...COVER_SHARES, settings.sharePercent])].sort((a, b) => a - b).map((percent) => (
            <option key={percent} value={percent}>
              {percent}% ({megabytes(shareBytes(percent))} of 500 MB)
            </option>
          ))}
        </select>
      </div>
      {user ? (
        <div className="space-y-2">
          <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
            {statusOf(mine, share)}
          </p>
          {mine?.stopped === 'storage-full' && (
            <button type="button" className={secondaryButtonClass} onClick={() => void restart()}>
              Start automatic covers again
            </button>
          )}
        </div>
      ) : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">Sign in to see what automatic covers have used.</p>
      )}
    </div>
  );
}
