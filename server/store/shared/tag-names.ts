import { MAX_TAGS_PER_USER } from '../../../lib/api/bookmarks.ts';

/** Tag names are unique per user regardless of case; the first spelling is kept. */
export const tagKey = (name: string): string => name.toLowerCase();

/** "a/b/c" → ["a", "a/b", "a/b/c"]: a hierarchical tag needs each of its ancestors. */
export function withAncestors(name: string): string[] {
  const parts = name.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Why the user may not get `adding` more tags, or null when they may. */
export function overTagCap(existing: number, adding: number): string | null {
  if (adding === 0 || existing + adding <= MAX_TAGS_PER_USER) return null;
  return (
    `this needs ${adding} new ${adding === 1 ? 'tag' : 'tags'} and the account has ${existing} of at most ${MAX_TAGS_PER_USER} tags; ` +
    'delete or merge tags first'
  );
}
