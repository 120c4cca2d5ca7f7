import { useEffect, useId, useRef } from 'react';
import type { VerifiedUser } from '../../lib/api/auth.ts';
import { Spinner } from './Spinner.tsx';
import { secondaryButtonClass } from '../field-styles.ts';

interface Props {
  user: VerifiedUser;
  serverUrl: string;
  signingOut: boolean;
  onSignOut(): void;
  /** Absent while the token-replacing form is open. */
  onReplaceToken?: () => void;
  /** Moves focus here when the summary appears after a sign-in, so keyboard users carry on from it. */
  focusHeading?: boolean;
}

/** Who is signed in, where, and the way out. */
export function AccountSummary({ user, serverUrl, signingOut, onSignOut, onReplaceToken, focusHeading = false }: Props) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusHeading) headingRef.current?.focus();
  }, [focusHeading]);

  const rows: [string, string, string?][] = [
    ['Name', user.name],
    ['Email', user.email],
    ['Plan', user.plan, 'capitalize'],
    ['Status', user.status, 'capitalize'],
    ['Server', serverUrl, 'break-all font-mono text-xs'],
  ];
  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="text-base font-semibold outline-none">
        Signed in
      </h3>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
        {rows.map(([term, value, extra]) => (
          <div key={term} className="contents">
            <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
            <dd className={extra ?? ''}>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={secondaryButtonClass} onClick={onSignOut} disabled={signingOut}>
          {signingOut ? (
            <>
              <Spinner /> Signing out…
            </>
          ) : (
            'Sign out'
          )}
        </button>
        {onReplaceToken && (
          <button type="button" className={secondaryButtonClass} onClick={onReplaceToken} disabled={signingOut}>
            Change server or token
          </button>
        )}
      </div>
    </section>
  );
}
