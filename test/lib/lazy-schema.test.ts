import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Bookmark, DuplicateGroup } from '../../lib/api/bookmarks.ts';
import { lazySchema } from '../../lib/api/lazy-schema.ts';
import { openApiDocument } from '../../lib/api/openapi.ts';

const made = () => {
  const calls: string[] = [];
  const Item = lazySchema(() => {
    calls.push('made');
    return z.object({ id: z.string().check(z.minLength(1)), count: z.number() });
  });
  return { Item, calls };
};

describe('lazySchema', () => {
  it('makes nothing until the schema is used, then makes it once', () => {
    const { Item, calls } = made();
    const List = z.array(Item);
    expect(calls).toEqual([]);
    expect(List.parse([{ id: 'a', count: 1 }])).toEqual([{ id: 'a', count: 1 }]);
    expect(Item.parse({ id: 'b', count: 2 })).toEqual({ id: 'b', count: 2 });
    expect(calls).toEqual(['made']);
  });

  it('refuses what the schema refuses, with the same issues, alone and nested', () => {
    const { Item } = made();
    const plain = z.object({ id: z.string().check(z.minLength(1)), count: z.number() });
    for (const bad of [{ id: '', count: 1 }, { id: 'a', count: '1' }, null, 'text', []]) {
      const lazy = Item.safeParse(bad);
      expect(lazy.success).toBe(false);
      expect(lazy.error?.issues).toEqual(plain.safeParse(bad).error?.issues);
      expect(z.object({ item: Item }).safeParse({ item: bad }).success).toBe(false);
    }
  });

  it('stands for the schema in zod’s own checks: instanceof, its shape, its kind', () => {
    const { Item } = made();
    expect(Item).toBeInstanceOf(z.ZodMiniObject);
    expect(Item).toBeInstanceOf(z.core.$ZodType);
    expect(Object.keys(Item.shape)).toEqual(['id', 'count']);
    expect(Item._zod.def.type).toBe('object');
    expect('parse' in Item).toBe(true);
  });

  it('keeps the API’s schemas as they were: a bookmark group parses, a wrong one is refused', () => {
    const bookmark = { id: 'b1', url: 'https://example.com/', title: 't', note: '', tags: [], collectionId: null, isFavorite: false, hasDescription: false, hasCover: false, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
    const group = { normalizedUrl: 'example.com', bookmarks: [bookmark, { ...bookmark, id: 'b2' }] };
    expect(DuplicateGroup.safeParse(group).success).toBe(true);
    expect(DuplicateGroup.safeParse({ ...group, bookmarks: [{ ...bookmark, tags: 'none' }] }).success).toBe(false);
    expect(Bookmark.safeParse({ id: 'b1' }).success).toBe(false);
  });

  it('names the lazily made schemas in the OpenAPI document as before', () => {
    const schemas = (openApiDocument() as { components: { schemas: Record<string, unknown> } }).components.schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Bookmark', 'Collection', 'Tag', 'SmartFolder', 'Job', 'Rules', 'Condition']));
  });
});
