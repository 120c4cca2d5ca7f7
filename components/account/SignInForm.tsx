import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { ClientError, toClientError } from '../../lib/client/errors.ts';
import type { AccountState } from '../../lib/messaging/protocol.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { send } from '../messenger.ts';
import { requestServerAccess } from './server-access.ts';
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from '../field-styles.ts';
import { hintClass } from './hint.ts';
import { Spinner } from './Spinner.tsx';
import { TokenField } from './TokenField.tsx';

interface Props {
  initialServerUrl: string;
  onSignedIn(state: AccountState): void;
  /** Given when an account is already signed in: the form then replaces its token, and can be closed. */
  onCancel?: () => void;
  /** Puts the cursor in the token field when the form appears after the user's action. */
  focusToken?: boolean;
  /** The account signed in, when this form replaces its token: the hint's admin command names it. */
  userId?: string;
}

/** Server address and API token; the background checks the token with the server before keeping it. */
export function SignInForm({ initialServerUrl, onSignedIn, onCancel, focusToken = false, userId }: Props) {
  const [serverUrl, setServerUrl] = useState(initialServerUrl);
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ClientError | null>(null);
  /** Offered once an address turned out to be plain http to a server that is not local; never ticked by default. */
  const [allowInsecure, setAllowInsecure] = useState<boolean | null>(null);
  const tokenRef = useRef<HTMLInputElement>(null);
  const serverId = useId();
  const serverHintId = useId();

  useEffect(() => {
    if (focusToken) tokenRef.current?.focus();
  }, [focusToken]);

  const signIn = async (access: Promise<boolean>) => {
    try {
      if (!(await access)) throw new ClientError('PERMISSION_DENIED', 'The browser did not allow Shelf to reach this server');
      const state = await send('signIn', { serverUrl, token, ...(allowInsecure && { allowInsecure }) });
      setBusy(false);
      onSignedIn(state);
    } catch (err) {
      setBusy(false);
      setError(toClientError(err));
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    let access: Promise<boolean>;
    try {
      access = requestServerAccess(serverUrl, { allowInsecure: allowInsecure === true }); // first, while the user's gesture lasts
    } catch (err) {
      const failure = toClientError(err);
      if (failure.code === 'INSECURE_SERVER') setAllowInsecure((was) => was ?? false);
      setError(failure);
      return;
    }
    setError(null);
    setBusy(true);
    void signIn(access);
  };

  const cancelOnEscape = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Escape' && onCancel && !busy) onCancel();
  };

  return (
    <form onSubmit={submit} onKeyDown={cancelOnEscape} className="space-y-4" aria-busy={busy}>
      <div className="space-y-1">
        <label htmlFor={serverId} className={labelClass}>
          Server URL
        </label>
        <input
          id={serverId}
          type="text"
          inputMode="url"
          className={inputClass}
          value={serverUrl}
          onChange={(event) => setServerUrl(event.target.value)}
          autoComplete="url"
          autoCapitalize="off"
          spellCheck={false}
          required
          aria-describedby={serverHintId}
        />
        <p id={serverHintId} className={hintClass}>
          Your Bookmark Library API, such as 127.0.0.1:8787 or https://bookmarks.example.com/v1.
        </p>
      </div>
      {allowInsecure !== null && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={allowInsecure} onChange={(event) => setAllowInsecure(event.target.checked)} />
          Send my token unencrypted
        </label>
      )}
      <TokenField ref={tokenRef} value={token} onChange={setToken} serverUrl={serverUrl} userId={userId} />
      {error && <ErrorAlert error={error} />}
      <div className="flex gap-2">
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          {busy ? (
            <>
              <Spinner /> Signing in…
            </>
          ) : (
            'Sign in'
          )}
        </button>
        {onCancel && (
          <button type="button" className={secondaryButtonClass} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
