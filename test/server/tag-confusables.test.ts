import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type TestServer, startTestServer } from '../support/server.ts';
import { importFile } from './jobs-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ raiseLimits: true });
});
afterAll(() => t.close());

const LOOKALIKE = 'p\u0430ypal'; // a Cyrillic "а" among Latin letters
const MESSAGE = 'must not mix alphabets within a word';
const tagNames = async (u: Awaited<ReturnType<TestServer['user']>>) =>
  dataOf(await u.api('GET', '/tags'), z.array(Tag)).map((tag) => tag.name).sort();

describe('a tag name mixing alphabets within a word is refused on every way in', () => {
  it('refuses it with a clear message and creates or changes nothing', async () => {
    const u = await t.user();
    const b = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://confusable.example/a', tags: ['paypal'] } }), Bookmark, 201);
    const paypal = dataOf(await u.api('GET', '/tags'), z.array(Tag))[0]!;

    const attempts = [
      u.api('POST', '/tags', { body: { name: LOOKALIKE } }),
      u.api('POST', '/tags', { body: { name: `money/${LOOKALIKE}` } }),
      u.api('PATCH', `/tags/${paypal.id}`, { body: { newName: LOOKALIKE } }),
      u.api('POST', `/bookmarks/${b.id}/tags`, { body: { name: LOOKALIKE } }),
      u.api('POST', '/bookmarks', { body: { url: 'https://confusable.example/b', tags: [LOOKALIKE] } }),
      u.api('PATCH', `/bookmarks/${b.id}`, { body: { tags: ['paypal', LOOKALIKE] } }),
      u.api('POST', '/bookmarks/bulk/tag', { body: { ids: [b.id], name: LOOKALIKE } }),
    ];
    for (const res of await Promise.all(attempts)) expect(expectError(res, 400, 'VALIDATION_ERROR')).toContain(MESSAGE);

    expect(await tagNames(u)).toEqual(['paypal']);
    expect(dataOf(await u.api('GET', `/bookmarks/${b.id}`), Bookmark)).toEqual(b);
    expect(dataOf(await u.api('GET', '/bookmarks'), z.object({ data: z.array(Bookmark) })).data).toHaveLength(1);
  });

  it('takes names of one script per word, and the mixes languages write with', async () => {
    const u = await t.user();
    for (const name of ['Москва-trip', 'Ελληνικά', '日本語テキストabc', '한국어abc', 'café/naïve']) {
      expect(dataOf(await u.api('POST', '/tags', { body: { name } }), Tag, 201).name).toBe(name);
    }
  });

  it('drops such a tag from an imported bookmark and keeps the bookmark', async () => {
    const u = await t.user();
    const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://confusable.example/c" TAGS="${LOOKALIKE},money">C</A></DL>`;
    expect((await importFile(t, u, file)).status).toBe('completed');
    const [saved] = dataOf(await u.api('GET', '/bookmarks'), z.object({ data: z.array(Bookmark) })).data;
    expect(saved).toMatchObject({ url: 'https://confusable.example/c', tags: ['money'] });
    expect(await tagNames(u)).toEqual(['money']);
  });
});
