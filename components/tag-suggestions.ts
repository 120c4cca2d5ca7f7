import { parseTagName, tagNameProblem } from '../lib/api/tag-name.ts';
import type { Tag } from '../lib/api/tags.ts';

/** What the pickers need of a tag: the popup adds the tags of a saved bookmark, known to exist, with no count. */
export type KnownTag = Pick<Tag, 'name' | 'count'>;

/** A hierarchical tag name as people read it: `dev/js` → `dev › js`. */
export const tagPath = (name: string): string => name.split('/').join(' › ');

/**
 * What the user typed, as a tag name (`dev › js` and `dev / js` both mean `dev/js`),
 * normalised by the contract's own TagName rules; null when it cannot be a tag.
 */
export function parseTagInput(raw: string): string | null {
  return parseTagName(raw.replace(/›/g, '/'));
}

/** Why what the user typed cannot be a tag, in their words; null when it can (parseTagInput's rule). */
export const tagInputProblem = (raw: string): string | null => tagNameProblem(raw.replace(/›/g, '/'));

const key = (name: string) => name.toLowerCase();

/** The user's tag with this name regardless of case, so that a typed `React` reuses `react`. */
export function findTag<T extends KnownTag>(tags: readonly T[], name: string): T | undefined {
  return tags.find((t) => key(t.name) === key(name));
}

export function hasTag(names: readonly string[], name: string): boolean {
  return names.some((n) => key(n) === key(name));
}

/**
 * Lower is better: the whole name, then its start, then the start of any level
 * (`js` finds `dev/js`, `dev/j` finds `web/dev/js`), then anywhere; null for no match.
 */
function rank(name: string, query: string): number | null {
  const n = key(name);
  if (n === query) return 0;
  if (n.startsWith(query)) return 1;
  if (`/${n}`.includes(`/${query}`)) return 2;
  return n.includes(query) ? 3 : null;
}

/**
 * The user's tags that match the query at any level, best first (then the most
 * used), without those already chosen. An empty query lists the most used tags.
 */
export function suggestTags<T extends KnownTag>(tags: readonly T[], query: string, chosen: readonly string[], limit = 8): T[] {
  const q = key(query.replace(/\s*›\s*/g, '/').replace(/\s*\/\s*/g, '/').trim());
  const scored: { tag: T; score: number }[] = [];
  for (const tag of tags) {
    if (hasTag(chosen, tag.name)) continue;
    const score = q === '' ? 0 : rank(tag.name, q);
    if (score !== null) scored.push({ tag, score });
  }
  scored.sort((a, b) => a.score - b.score || b.tag.count - a.tag.count || a.tag.name.localeCompare(b.tag.name));
  return scored.slice(0, limit).map((s) => s.tag);
}

/** The chosen tags plus typed names, each as the user's existing spelling when they have the tag. */
export function addTags(known: readonly KnownTag[] | null, chosen: readonly string[], typed: readonly string[]): string[] {
  const result = [...chosen];
  for (const raw of typed) {
    const name = parseTagInput(raw);
    if (name === null) continue;
    const spelled = (known && findTag(known, name)?.name) ?? name;
    if (!hasTag(result, spelled)) result.push(spelled);
  }
  return result;
}
