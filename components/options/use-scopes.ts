import { useQuery } from '@tanstack/react-query';
import { hasScope } from '../../lib/api/scope-check.ts';
import type { Scope } from '../../lib/api/scopes.ts';
import { keys } from '../library/query-keys.ts';
import { sendLibrary } from '../library/send.ts';

/**
 * Whether the token may do something: a section offers only what its scopes
 * allow (the server counts a refused scope toward an IP block). Before the
 * account is known, or when the server did not say, nothing is held back: the
 * client still refuses to send what the token cannot do.
 */
export function useScope(scope: Scope): boolean {
  const account = useQuery({ queryKey: keys.account, queryFn: () => sendLibrary('getAccount', {}) });
  const scopes = account.data?.scopes;
  return scopes == null || hasScope(scopes, scope);
}
