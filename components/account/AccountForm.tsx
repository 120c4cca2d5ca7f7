import { useEffect, useState } from 'react';
import { type ClientError, toClientError } from '../../lib/client/errors.ts';
import type { AccountState } from '../../lib/messaging/protocol.ts';
import { forgetPanelPaint } from '../../lib/storage/panel-paint.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { send } from '../messenger.ts';
import { AccountSummary } from './AccountSummary.tsx';
import { HeldSaves } from './HeldSaves.tsx';
import { IndexSyncStatus } from './IndexSyncStatus.tsx';
import { askedToSignIn } from './SignInAgain.tsx';
import { SignInForm } from './SignInForm.tsx';

/**
 * The Account section: the sign-in form, or who is signed in. A failed sign-in
 * changes nothing (the background verifies a token before keeping it), so the
 * summary of the previous account stays while another token is tried.
 */
export function AccountForm() {
  const [account, setAccount] = useState<AccountState | null>(null);
  const [error, setError] = useState<ClientError | null>(null);
  const [replacing, setReplacing] = useState(false);
  /** Whether the token field takes the focus when the replacing form appears: not when the page load opened it, unless *Sign in again* asked for it. */
  const [focusReplacing, setFocusReplacing] = useState(true);
  const [signingOut, setSigningOut] = useState(false);
  /** Set by the user's own actions only: the page load moves no focus. */
  const [acted, setActed] = useState(false);

  useEffect(() => {
    let live = true;
    send('getAccount', {}).then(
      (state) => {
        if (!live) return;
        setAccount(state);
        // A refused token leaves nothing to do here but sign in again: the form is open, with the server filled in.
        if (state.signedIn && state.tokenProblem) {
          setReplacing(true);
          setFocusReplacing(askedToSignIn(window.location.search));
        }
      },
      (err: unknown) => live && setError(toClientError(err)),
    );
    return () => {
      live = false;
    };
  }, []);

  const signedIn = (state: AccountState) => {
    // An account that leaves takes the side panel's last paint of its library with it (the background clears its kept pages).
    forgetPanelPaint();
    setAccount(state);
    setReplacing(false);
    setActed(true);
  };

  const signOut = async () => {
    setSigningOut(true);
    setError(null);
    try {
      setAccount(await send('signOut', {}));
      forgetPanelPaint();
      setReplacing(false);
      setActed(true);
    } catch (err) {
      setError(toClientError(err));
    } finally {
      setSigningOut(false);
    }
  };

  if (account === null) {
    return error ? <ErrorAlert error={error} /> : <p role="status">Loading your account…</p>;
  }
  if (!account.signedIn || account.user === null) {
    return (
      <div className="space-y-4">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">Sign in with an API token of your Bookmark Library account to save pages to it.</p>
        <HeldSaves />
        <SignInForm key="sign-in" initialServerUrl={account.serverUrl} onSignedIn={signedIn} focusToken={acted || askedToSignIn(window.location.search)} />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <AccountSummary
        user={account.user}
        serverUrl={account.serverUrl}
        signingOut={signingOut}
        onSignOut={() => void signOut()}
        {...(!replacing && {
          onReplaceToken: () => {
            setReplacing(true);
            setFocusReplacing(true);
          },
        })}
        focusHeading={acted && !replacing}
      />
      <IndexSyncStatus />
      <HeldSaves />
      {error && <ErrorAlert error={error} />}
      {account.tokenProblem && (
        <div className="space-y-2">
          <ErrorAlert error={{ ...account.tokenProblem, retryAfterSeconds: undefined }} />
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Shelf has stopped using this token. Sign in again with a valid one: saves waiting meanwhile are kept and sent then.
          </p>
        </div>
      )}
      {replacing && (
        <div className="space-y-3 border-t border-zinc-200 pt-4 dark:border-zinc-800">
          <h3 className="text-base font-semibold">Change server or token</h3>
          <SignInForm
            key="replace"
            initialServerUrl={account.serverUrl}
            userId={account.user.userId}
            onSignedIn={signedIn}
            onCancel={() => setReplacing(false)}
            focusToken={focusReplacing}
          />
        </div>
      )}
    </div>
  );
}
