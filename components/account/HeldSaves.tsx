import { useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';
import { type ClientError, toClientError } from '../../lib/client/errors.ts';
import type { HeldSaves as HeldSavesSchema } from '../../lib/messaging/library-replies.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { ConfirmDialog } from '../options/ConfirmDialog.tsx';
import { secondaryButtonClass } from '../field-styles.ts';
import { sendLibrary } from '../library/send.ts';

type Held = z.infer<typeof HeldSavesSchema>;
type Owner = Held[number]['owner'];

const saves = (n: number) => `${n} ${n === 1 ? 'save' : 'saves'}`;

/**
 * Saves queued by another account than the one signed in (or by any, when
 * signed out): Shelf never sends them with this account's token. They go when
 * their account signs in again; until then the user sees them here and may
 * give them up. Follows the queue and the account live from storage.
 */
export function HeldSaves() {
  const [held, setHeld] = useState<Held>([]);
  const [error, setError] = useState<ClientError | null>(null);
  const [discarding, setDiscarding] = useState<Held[number] | null>(null);

  useEffect(() => {
    let live = true;
    const read = () => void sendLibrary('heldSaves', {}).then((h) => live && setHeld(h), (err: unknown) => live && setError(toClientError(err)));
    // The queue changed, or who is signed in where (a sign-in or sign-out writes the user and the server).
    const changed = (changes: Record<string, unknown>, area: string) => area === 'local' && ['saveQueue', 'user', 'settings'].some((key) => key in changes) && read();
    read();
    browser.storage.onChanged.addListener(changed);
    return () => {
      live = false;
      browser.storage.onChanged.removeListener(changed);
    };
  }, []);

  const discard = async ({ serverUrl, userId }: Owner) => {
    setError(null);
    try {
      setHeld(await sendLibrary('discardHeldSaves', { serverUrl, userId }));
    } catch (err) {
      setError(toClientError(err));
    }
  };

  if (held.length === 0 && error === null) return null;
  return (
    <section aria-label="Saves waiting for another account" className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
      <ul className="space-y-2">
        {held.map((group) => (
          <li key={`${group.owner.serverUrl}\n${group.owner.userId}`} className="flex flex-wrap items-center gap-2">
            <span>
              {saves(group.count)} waiting for {group.owner.email} at <span className="break-all font-mono text-xs">{group.owner.serverUrl}</span>. Sign in as that
              account to send them.
            </span>
            <button type="button" className={secondaryButtonClass} onClick={() => setDiscarding(group)}>
              Discard saves for {group.owner.email}
            </button>
          </li>
        ))}
      </ul>
      {error && <ErrorAlert error={error} />}
      {discarding && (
        <ConfirmDialog
          title={`Discard ${saves(discarding.count)} for ${discarding.owner.email}?`}
          confirmLabel="Discard saves"
          onCancel={() => setDiscarding(null)}
          onConfirm={() => {
            const { owner } = discarding;
            setDiscarding(null);
            void discard(owner);
          }}
        >
          <p>These pages were never saved to {discarding.owner.serverUrl}. Discarded, they are gone from Shelf.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
