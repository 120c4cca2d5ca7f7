import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Evaluation, SmartFolder } from '../../lib/api/smart-folders.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/server.ts';

/** PATCH takes "any subset of the bookmark fields" (spec): the writable ones change, the server's own are ignored. */
let t: TestServer;
let u: TestUser;
let saved: Bookmark;
beforeAll(async () => {
  t = await startTestServer();
  u = await t.user();
  saved = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://patch.example/a', title: 'A', description: 'd' } }), Bookmark, 201);
});
afterAll(() => t.close());

describe('PATCH /bookmarks/:id', () => {
  it('sets the click count and the favicon', async () => {
    const patched = dataOf(
      await u.api('PATCH', `/bookmarks/${saved.id}`, { body: { clickCount: 7, favicon: 'https://patch.example/icon.png' } }),
      Bookmark,
    );
    expect(patched).toMatchObject({ clickCount: 7, favicon: 'https://patch.example/icon.png', title: 'A' });
  });

  it('accepts a bookmark sent back as it was read, changing only what may change', async () => {
    const read = dataOf(await u.api('GET', `/bookmarks/${saved.id}`), Bookmark);
    const sentBack = { ...read, title: 'Renamed', createdAt: '2001-01-01T00:00:00.000Z', domain: 'elsewhere.example', id: 'bm_other' };
    const patched = dataOf(await u.api('PATCH', `/bookmarks/${saved.id}`, { body: sentBack }), Bookmark);
    expect(patched).toMatchObject({ id: saved.id, title: 'Renamed', createdAt: read.createdAt, domain: read.domain });
  });

  it('refuses a name that is no bookmark field, or a negative count, and changes nothing', async () => {
    const before = dataOf(await u.api('GET', `/bookmarks/${saved.id}`), Bookmark);
    expect(expectError(await u.api('PATCH', `/bookmarks/${saved.id}`, { body: { title: 'X', colour: 'red' } }), 400, 'VALIDATION_ERROR')).toMatch(/colour/);
    expectError(await u.api('PATCH', `/bookmarks/${saved.id}`, { body: { clickCount: -1 } }), 400, 'VALIDATION_ERROR');
    expectError(await u.api('PATCH', `/bookmarks/${saved.id}`, { body: { clickCount: 1.5 } }), 400, 'VALIDATION_ERROR');
    expect(dataOf(await u.api('GET', `/bookmarks/${saved.id}`), Bookmark)).toEqual(before);
  });

  it('makes a clickCount smart-folder rule match', async () => {
    const folder = dataOf(
      await u.api('POST', '/smart-folders', {
        body: { name: 'Popular', rules: { match: 'all', conditions: [{ field: 'clickCount', operator: 'gte', value: '5' }] } },
      }),
      SmartFolder,
      201,
    );
    const page = dataOf(await u.api('GET', `/smart-folders/${folder.id}/bookmarks`), Evaluation);
    expect(page.bookmarks.map((b) => b.id)).toEqual([saved.id]);
  });
});
