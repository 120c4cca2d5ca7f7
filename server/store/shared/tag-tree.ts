import { MAX_TAG_DEPTH, tagDepth } from '../../../lib/api/bookmarks.ts';
import { type ApiError, conflict, invalid } from '../../http/api-error.ts';
import { tagKey } from './tag-names.ts';

/**
 * The rules of a user's tag tree that do not depend on the database: what a rename makes of
 * the names under the tag, the order a subtree is deleted in, and the refusals.
 */

/** A tag as the subtree operations read it. */
export type SubtreeTag = { id: string; name: string; name_key: string };

/** The longest tag name TagName accepts; a rename must not push a descendant past it. */
const MAX_TAG_NAME = 200;

export const parentName = (name: string): string | null => (name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : null);

/**
 * Where the levels of `name` after its first `levels` begin (the "/" before them; its length when
 * there are none), and how many there are. By indexOf rather than split: a rename works through up
 * to MAX_TAGS_PER_USER names in one turn of the event loop (on PostgreSQL).
 */
function levelsAfter(name: string, levels: number): { at: number; more: number } {
  let at = -1;
  for (let level = 0; level < levels; level++) {
    at = name.indexOf('/', at + 1);
    if (at === -1) return { at: name.length, more: 0 };
  }
  let more = 0;
  for (let slash = at; slash !== -1; slash = name.indexOf('/', slash + 1)) more++;
  return { at, more };
}

/** Deepest first, so that whatever is left after any slice still has all its ancestors. */
export const deepestFirst = (tags: readonly SubtreeTag[]): string[] =>
  [...tags].sort((a, b) => tagDepth(b.name) - tagDepth(a.name)).map((t) => t.id);

/** Refuses a new name inside the tag's own subtree. */
export function checkNotUnderItself(tag: SubtreeTag, newName: string): void {
  if (tagKey(newName).startsWith(`${tag.name_key}/`)) {
    throw invalid('body', 'newName', 'a tag cannot move under itself; choose a name outside its own subtree');
  }
}

/**
 * The new names of a renamed subtree (`members`: the renamed tag first, then its descendants),
 * refusing one that would grow a name past the length or depth a tag may have.
 */
export function renamedSubtree(members: readonly SubtreeTag[], newName: string): { id: string; name: string }[] {
  const levels = tagDepth(members[0]!.name);
  const newDepth = tagDepth(newName);
  return members.map((m) => {
    const rest = levelsAfter(m.name, levels);
    const name = newName + m.name.slice(rest.at);
    if (name.length > MAX_TAG_NAME) throw invalid('body', 'newName', `would make the tag name "${name}" longer than ${MAX_TAG_NAME} characters`);
    if (newDepth + rest.more > MAX_TAG_DEPTH) {
      throw invalid('body', 'newName', `would make the tag "${name}" deeper than ${MAX_TAG_DEPTH} levels, the most a tag may have`);
    }
    return { id: m.id, name };
  });
}

/**
 * The refusal of a rename whose new names meet a tag outside the renamed subtree (`find` looks
 * a name key up among the user's tags), or null when none does.
 */
export function takenOutside(
  renamed: readonly { name: string }[],
  members: ReadonlySet<string>,
  find: (key: string) => { id: string; name: string } | undefined,
): ApiError | null {
  for (const { name } of renamed) {
    const taken = find(tagKey(name));
    if (taken && !members.has(taken.id)) {
      return conflict(`a tag named "${taken.name}" already exists; merge the tags (POST /tags/merge) instead of renaming`);
    }
  }
  return null;
}

export const tagExists = (existing: { id: string; name: string }): ApiError =>
  conflict(`a tag named "${existing.name}" already exists (${existing.id})`);

export const mergeIntoItself = (): ApiError => invalid('body', 'targetTagId', 'must be another tag than sourceTagId');

export const mergeOfParent = (source: { name: string }): ApiError =>
  conflict(`only a tag without children can be merged; "${source.name}" has child tags (merge or delete those first)`);
