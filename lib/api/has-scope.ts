import type { Scope } from './scopes.ts';

// Apart from scopes.ts, which the popup loads: a page that checks grants does not put this in the popup's chunks.

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
