import * as z from 'zod/mini';
import { typedItem } from './typed-item.ts';

/** How many recent searches are kept: a short list to pick from, not a history. */
export const RECENT_SEARCHES = 8;

/** The searches the user ran last, newest first (the library pages' search box offers them again). */
export const recentSearchesItem = typedItem('local:recentSearches', z.array(z.string().check(z.minLength(1), z.maxLength(500))).check(z.maxLength(RECENT_SEARCHES)), {
  fallback: [],
  onInvalid: 'fallback',
});

/** The list with `text` put first: once, whatever its spacing, and no longer than RECENT_SEARCHES. */
export function withRecent(list: readonly string[], text: string): string[] {
  const tidy = text.trim().replace(/\s+/g, ' ');
  if (tidy === '') return [...list];
  return [tidy, ...list.filter((s) => s !== tidy)].slice(0, RECENT_SEARCHES);
}
