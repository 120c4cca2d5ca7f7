import { describe, expect, it } from 'vitest';
import { MAX_TAG_DEPTH } from '../../lib/api/bookmarks.ts';
import { ApiError } from '../../server/http/api-error.ts';
import { type SubtreeTag, renamedSubtree } from '../../server/store/shared/tag-tree.ts';

const tags = (...names: string[]): SubtreeTag[] => names.map((name) => ({ id: `tag_${name}`, name, name_key: name.toLowerCase() }));
const names = (members: SubtreeTag[], newName: string) => renamedSubtree(members, newName).map((r) => r.name);
const refusal = (members: SubtreeTag[], newName: string): string => {
  const err: unknown = (() => {
    try {
      return renamedSubtree(members, newName);
    } catch (thrown) {
      return thrown;
    }
  })();
  expect(err).toBeInstanceOf(ApiError);
  return (err as ApiError).message;
};

describe('renamedSubtree', () => {
  it("replaces the renamed tag's levels, however its descendants spell them, and keeps the levels after them", () => {
    expect(names(tags('Reading', 'reading/Later', 'READING/later/x'), 'books')).toEqual(['books', 'books/Later', 'books/later/x']);
    expect(names(tags('a/b', 'A/b/c', 'a/B/c/d'), 'p/q/r')).toEqual(['p/q/r', 'p/q/r/c', 'p/q/r/c/d']);
    expect(names(tags('a/b/c', 'a/b/c/d'), 'top')).toEqual(['top', 'top/d']);
    // A level may hold characters whose lower case is longer: levels are counted, not characters.
    expect(names(tags('İ/x', 'i̇/x/y'), 'z')).toEqual(['z', 'z/y']);
    expect(renamedSubtree(tags('a', 'a/b'), 'c')).toEqual([
      { id: 'tag_a', name: 'c' },
      { id: 'tag_a/b', name: 'c/b' },
    ]);
  });

  it('refuses a new name that would make a descendant too long or too deep, naming it', () => {
    const deep = Array.from({ length: MAX_TAG_DEPTH }, (_, i) => `l${i}`).join('/');
    expect(names(tags('a', 'a/b'), deep.split('/').slice(0, -1).join('/'))).toHaveLength(2);
    expect(refusal(tags('a', 'a/b'), deep)).toBe(
      `Invalid body: newName: would make the tag "${deep}/b" deeper than ${MAX_TAG_DEPTH} levels, the most a tag may have`,
    );
    expect(refusal(tags('a', 'a/bb'), 'x'.repeat(198))).toBe(`Invalid body: newName: would make the tag name "${'x'.repeat(198)}/bb" longer than 200 characters`);
    expect(names(tags('a', 'a/b'), 'x'.repeat(198))).toHaveLength(2);
  });
});
