import { useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import { type ClientError, needsSignIn } from '../../lib/client/errors.ts';
import { type TokenHowTo, newTokenHowTo } from '../../lib/client/user-text.ts';
import { settingsItem, userItem } from '../../lib/storage/items.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { primaryButtonClass } from '../field-styles.ts';
import { TokenHowToText } from './TokenHowTo.tsx';

/** options.html?sign-in#account: the Account section with the sign-in form open and its token field focused. */
export const SIGN_IN_AGAIN_PARAM = 'sign-in';

export const askedToSignIn = (search: string): boolean => new URLSearchParams(search).has(SIGN_IN_AGAIN_PARAM);

/** A tab of the options page, at the Account section, ready for a new token. */
export function openSignIn(): Promise<unknown> {
  return browser.tabs.create({ url: `${browser.runtime.getURL('/options.html')}?${SIGN_IN_AGAIN_PARAM}#account` });
}

/** How to get a new token for the server kept in storage (and, when known, the signed-in user's id for the admin command). */
function useTokenHowTo(): TokenHowTo | null {
  const [howTo, setHowTo] = useState<TokenHowTo | null>(null);
  useEffect(() => {
    let live = true;
    void Promise.all([settingsItem.get(), userItem.get()]).then(
      ([{ serverUrl }, user]) => live && setHowTo(newTokenHowTo(serverUrl, user?.userId ?? null)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return howTo;
}

/** The way out of a refused token, from a page that has no sign-in form: how to get a new token, and *Sign in again*. */
export function SignInAgain() {
  const howTo = useTokenHowTo();
  return (
    <div className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
      {howTo && <TokenHowToText howTo={howTo} />}
      <button type="button" className={primaryButtonClass} onClick={() => void openSignIn()}>
        Sign in again
      </button>
    </div>
  );
}

/** A failure in words; when only a new sign-in gets past it, with the way there. */
export function ErrorAlertWithSignIn({ error }: { error: Pick<ClientError, 'code' | 'message' | 'retryAfterSeconds'> }) {
  return (
    <div className="space-y-2">
      <ErrorAlert error={error} />
      {needsSignIn(error.code) && <SignInAgain />}
    </div>
  );
}
