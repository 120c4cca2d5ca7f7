import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.ts';

export const Scope = lazySchema(() => z.enum([
  'bookmarks:read',
  'bookmarks:write',
  'collections:read',
  'collections:write',
  'tags:read',
  'tags:write',
  'import',
  'export',
  'destructive',
]));
export type Scope = z.infer<typeof Scope>;

export const ALL_SCOPES: readonly Scope[] = Scope.options;

/** What the token creation UI preselects: everything but the opt-in scopes. */
export const DEFAULT_SCOPES: readonly Scope[] = /* @__PURE__ */ ALL_SCOPES.filter(
  (s) => s !== 'import' && s !== 'export' && s !== 'destructive',
);
