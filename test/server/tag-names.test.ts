import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type TestServer, startTestServer } from '../support/server.ts';
import { save } from './bookmarks-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ raiseLimits: true });
});
afterAll(() => t.close());

const Tags = z.array(Tag);

describe('tag names on every way in', () => {
  it('stores one NFC tag for names that differ only in composition or invisible characters', async () => {
    const u = await t.user();
    const a = await save(u, { url: 'https://names.example/a', tags: ['re\u0301sume\u0301', 'dev/\u200Bjs\u202E'] });
    const b = await save(u, { url: 'https://names.example/b', tags: ['r\u00e9sum\u00e9', '\uFEFFdev/js'] });
    expect(a.tags.sort()).toEqual(['dev/js', 'r\u00e9sum\u00e9']);
    expect(b.tags.sort()).toEqual(['dev/js', 'r\u00e9sum\u00e9']);
    const tags = dataOf(await u.api('GET', '/tags'), Tags);
    expect(tags.map((tag) => [tag.name, tag.count]).sort(), JSON.stringify(tags)).toEqual([
      ['dev', 0],
      ['dev/js', 2],
      ['r\u00e9sum\u00e9', 2],
    ]);

    const created = await u.api('POST', '/tags', { body: { name: 'new\u2066/tag' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((created.body as { data: { name: string } }).data.name).toBe('new/tag');
  });

  it('refuses a name, or a level, of invisible characters only, changing nothing', async () => {
    const u = await t.user();
    const body = { url: 'https://names.example/c', tags: ['a/\u200B\u200C/b'] };
    expect(expectError(await u.api('POST', '/bookmarks', { body }), 400, 'VALIDATION_ERROR')).toMatch(/empty level/);
    expect(expectError(await u.api('POST', '/tags', { body: { name: '\u200B\u202E' } }), 400, 'VALIDATION_ERROR')).toMatch(/must not be empty/);
    expect(dataOf(await u.api('GET', '/tags'), Tags)).toEqual([]);
    expect(dataOf(await u.api('GET', '/bookmarks/search?q=names.example'), z.array(z.unknown()))).toEqual([]);
  });
});
