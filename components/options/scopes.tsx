import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { hasScope } from '../../lib/api/scope-check.ts';
import type { Scope } from '../../lib/api/scopes.ts';
import { newTokenHowTo } from '../../lib/client/user-text.ts';
import { TokenHowToText } from '../account/TokenHowTo.tsx';
import { keys } from '../library/query-keys.ts';
import { sendLibrary } from '../library/send.ts';

/**
 * What the signed-in token may do. Unknown scopes (a server that does not say)
 * allow everything: the server is then the judge, as before scopes were kept.
 */
export function useScopes(): { loaded: boolean; allows(scope: Scope): boolean } {
  const account = useQuery({ queryKey: keys.account, queryFn: () => sendLibrary('getAccount', {}) });
  const scopes = account.data?.scopes ?? null;
  return { loaded: account.data !== undefined, allows: (scope) => scopes === null || hasScope(scopes, scope) };
}

/**
 * Why an action is not offered: the scope it needs, and how to get a token with it — from this server's API Tokens
 * settings, or for a local server (which has none) from its admin command.
 */
export function MissingScope({ scope, children }: { scope: Scope; children: ReactNode }) {
  const account = useQuery({ queryKey: keys.account, queryFn: () => sendLibrary('getAccount', {}) });
  const howTo = newTokenHowTo(account.data?.serverUrl ?? '', account.data?.user?.userId ?? null);
  return (
    <div className="space-y-1 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
      <p>
        {children} This needs a token with the <strong>{scope}</strong> scope.
      </p>
      <TokenHowToText howTo={howTo} />
      <p>
        Then{' '}
        <a href="#account" className="underline">
          sign in with it in the Account section
        </a>
        .
      </p>
    </div>
  );
}
