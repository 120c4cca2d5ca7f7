import type { Scope } from './scopes.ts';

// Apart from scopes.ts: the popup loads that module (its Scope schema), and this only the pages that check scopes.

const impliedBy: Partial<Record<Scope, Scope>> = {
  'bookmarks:read': 'bookmarks:write',
  'collections:read': 'collections:write',
  'tags:read': 'tags:write',
};

/** A write scope also grants its read scope. */
export function hasScope(granted: readonly Scope[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const writer = impliedBy[required];
  return writer !== undefined && granted.includes(writer);
}
