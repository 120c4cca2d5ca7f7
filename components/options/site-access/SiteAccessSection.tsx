import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState } from 'react';
import { browser } from 'wxt/browser';
import { type ClientError, toClientError } from '../../../lib/client/errors.ts';
import { keepCoverSiteAccessItem } from '../../../lib/storage/items.ts';
import { isNamedInManifest } from '../../account/server-access.ts';
import { ErrorAlert } from '../../ErrorAlert.tsx';
import { secondaryButtonClass } from '../../field-styles.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';

/** "https://images.example/*" → "https://images.example"; null for a wildcard pattern, which names no one site. */
const originOf = (pattern: string): string | null => {
  const url = pattern.replace(/\/\*$/, '/');
  if (!URL.canParse(url)) return null;
  const { origin, hostname } = new URL(url);
  return hostname.includes('*') ? null : origin;
};

/** The sites the user let Shelf read (optional host permissions), beyond this computer's, which the manifest grants. */
function useGrantedSites(): { sites: string[] | null; reload(): void } {
  const [sites, setSites] = useState<string[] | null>(null);
  const reload = useCallback(() => {
    void browser.permissions.getAll().then(({ origins = [] }) => {
      const named = origins.map(originOf).filter((origin): origin is string => origin !== null && !isNamedInManifest(origin));
      setSites([...new Set(named)].sort());
    });
  }, []);
  useEffect(() => {
    reload();
    // Granted or removed elsewhere (Set as cover image, the browser's own extension settings): shown as it happens.
    browser.permissions.onAdded.addListener(reload);
    browser.permissions.onRemoved.addListener(reload);
    return () => {
      browser.permissions.onAdded.removeListener(reload);
      browser.permissions.onRemoved.removeListener(reload);
    };
  }, [reload]);
  return { sites, reload };
}

/**
 * Site access: each site Shelf may read, with Remove, and whether Set as cover image keeps the access it
 * asks for. The signed-in server's site has no Remove: without it Shelf cannot reach the account, so the
 * way to give it up is to sign out first.
 */
export function SiteAccessSection() {
  const id = useId();
  const { sites, reload } = useGrantedSites();
  const account = useQuery({ queryKey: keys.account, queryFn: () => sendLibrary('getAccount', {}) });
  const serverOrigin = account.data?.signedIn && URL.canParse(account.data.serverUrl) ? new URL(account.data.serverUrl).origin : null;
  const [keep, setKeep] = useState<boolean | null>(null);
  const [error, setError] = useState<ClientError | null>(null);

  useEffect(() => {
    void keepCoverSiteAccessItem.get().then(setKeep);
  }, []);

  const remove = async (origin: string) => {
    setError(null);
    try {
      await browser.permissions.remove({ origins: [`${origin}/*`] });
    } catch (err) {
      setError(toClientError(err));
    }
    reload();
  };

  const changeKeep = async (next: boolean) => {
    setKeep(next);
    await keepCoverSiteAccessItem.set(next);
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Shelf reads your server on this computer without asking. Any other site it may read is listed here: your server elsewhere, and the sites of images you set as covers.
      </p>
      <section aria-labelledby={`${id}-sites`} className="space-y-2">
        <h3 id={`${id}-sites`} className="text-base font-semibold">
          Sites Shelf may read
        </h3>
        {sites === null ? (
          <p role="status">Loading…</p>
        ) : sites.length === 0 ? (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">No other site.</p>
        ) : (
          <ul aria-labelledby={`${id}-sites`} className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            {sites.map((origin) => (
              <li key={origin} className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
                <span className="min-w-0 break-all font-mono text-xs">{origin}</span>
                {origin === serverOrigin ? (
                  <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400">Your server: sign out to remove it</span>
                ) : (
                  <button type="button" className={secondaryButtonClass} aria-label={`Remove ${origin}`} onClick={() => void remove(origin)}>
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {error && <ErrorAlert error={error} />}
      </section>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5" checked={keep === true} disabled={keep === null} onChange={(event) => void changeKeep(event.target.checked)} />
        <span>
          Keep access to an image’s site after Set as cover image
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">Off: Shelf gives the access back as soon as it has read the image, and asks again next time.</span>
        </span>
      </label>
    </div>
  );
}
