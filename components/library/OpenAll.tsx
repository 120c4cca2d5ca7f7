import { useState } from 'react';
import { type ClientError, toClientError } from '../../lib/client/errors.ts';
import { MAX_OPEN_ALL, type OpenAllRequest } from '../../lib/messaging/library-requests.ts';
import { ErrorAlertWithSignIn } from '../account/SignInAgain.tsx';
import { secondaryButtonClass } from '../field-styles.ts';
import { ConfirmDialog } from '../options/ConfirmDialog.tsx';
import { plural } from '../options/count.ts';
import { sendLibrary } from './send.ts';

/** Above this many tabs, Open all asks first. */
export const OPEN_ALL_ASK_ABOVE = 20;

/**
 * Open all: the bookmarks of a collection or a selection as the tabs of a new window (the background opens it and
 * counts each open), asking first when they are more than OPEN_ALL_ASK_ABOVE. `count` is how many there are.
 */
export function OpenAllButton({ target, count }: { target: OpenAllRequest; count: number }) {
  const [asking, setAsking] = useState(false);
  const [opening, setOpening] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<ClientError | null>(null);
  const open = async () => {
    setAsking(false);
    setOpening(true);
    setSaid(null);
    setError(null);
    try {
      const { opened, more } = await sendLibrary('openAll', target);
      if (opened === 0) setSaid('Nothing to open: none of these is a web page.');
      else setSaid(`Opened ${plural(opened, 'bookmark', 'bookmarks')} in a new window${more ? ` (the first ${MAX_OPEN_ALL})` : ''}.`);
    } catch (err) {
      setError(toClientError(err));
    } finally {
      setOpening(false);
    }
  };
  return (
    <>
      <button type="button" className={secondaryButtonClass} disabled={opening || count === 0} onClick={() => (count > OPEN_ALL_ASK_ABOVE ? setAsking(true) : void open())}>
        Open all
      </button>
      {said && (
        <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {said}
        </span>
      )}
      {error && <ErrorAlertWithSignIn error={error} />}
      {asking && (
        <ConfirmDialog title={`Open ${plural(count, 'bookmark', 'bookmarks')}?`} confirmLabel="Open all" onConfirm={() => void open()} onCancel={() => setAsking(false)}>
          <p>
            {count > MAX_OPEN_ALL
              ? `The first ${MAX_OPEN_ALL} of them open as the tabs of a new window.`
              : `Each opens as a tab of a new window.`}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
