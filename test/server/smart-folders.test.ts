import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { SuccessResult } from '../../lib/api/common.ts';
import { SmartFolder } from '../../lib/api/smart-folders.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type TestServer, type TestUser, startIsolatedTestServer } from '../support/server.ts';
import { type Rules, createFolder, evaluate, evaluateRaw, ids, openRawDbOf, save } from './smart-folders-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  // Its version checks need a PostgreSQL cluster of its own (see startIsolatedTestServer).
  t = await startIsolatedTestServer();
});
afterAll(async () => {
  await t.close();
});

const tagRule = (value: string): Rules => ({ match: 'all', conditions: [{ field: 'tag', operator: 'equals', value }] });

const listFolders = async (u: TestUser) => dataOf(await u.api('GET', '/smart-folders'), z.array(SmartFolder));

describe('smart folder definitions', () => {
  it('creates a folder with empty icon and color by default and normalised rules', async () => {
    const u = await t.user();
    const rules = { match: 'any', conditions: [{ field: 'domain', operator: 'equals', value: 'https://WWW.Example.com/path' }] };
    const before = t.server.deps.clock.now();
    const folder = dataOf(await u.api('POST', '/smart-folders', { body: { name: '  Reading  ', rules } }), SmartFolder, 201);
    expect(folder).toMatchObject({ name: 'Reading', icon: '', color: '', rules: { match: 'any', conditions: [{ field: 'domain', operator: 'equals', value: 'example.com' }] } });
    expect(folder.id).toMatch(/^sf_/);
    expect(Date.parse(folder.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(folder.createdAt)).toBeLessThanOrEqual(t.server.deps.clock.now());
    expect(dataOf(await u.api('GET', `/smart-folders/${folder.id}`), SmartFolder)).toEqual(folder);

    const styled = await u.api('POST', '/smart-folders', { body: { name: 'Styled', icon: '📚', color: 'blue', rules: tagRule('x') } });
    expect(dataOf(styled, SmartFolder, 201)).toMatchObject({ icon: '📚', color: 'blue' });
  });

  it('lists the user\'s folders by name, case-insensitively', async () => {
    const u = await t.user();
    for (const name of ['beta', 'Alpha', 'gamma']) await createFolder(u, tagRule('x'), name);
    expect((await listFolders(u)).map((f) => f.name)).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await listFolders(await t.user())).toEqual([]);
  });

  it('patches any of name, icon, color and rules, leaving the rest', async () => {
    const u = await t.user();
    const folder = await createFolder(u, tagRule('x'), 'Before');
    const renamed = dataOf(await u.api('PATCH', `/smart-folders/${folder.id}`, { body: { name: 'After', color: 'red' } }), SmartFolder);
    expect(renamed).toEqual({ ...folder, name: 'After', color: 'red' });
    const rules = { match: 'any', conditions: [{ field: 'clickCount', operator: 'gte', value: '3' }] };
    const ruled = dataOf(await u.api('PATCH', `/smart-folders/${folder.id}`, { body: { rules, icon: '⭐' } }), SmartFolder);
    expect(ruled).toEqual({ ...renamed, rules, icon: '⭐' });
    expect(dataOf(await u.api('PATCH', `/smart-folders/${folder.id}`, { body: {} }), SmartFolder)).toEqual(ruled);
  });

  it('deletes the definition only', async () => {
    const u = await t.user();
    const bookmark = await save(u, { url: 'https://example.com/kept', tags: ['x'] });
    const folder = await createFolder(u, tagRule('x'));
    expect(dataOf(await u.api('DELETE', `/smart-folders/${folder.id}`), SuccessResult)).toEqual({ success: true });
    expectError(await u.api('GET', `/smart-folders/${folder.id}`), 404, 'NOT_FOUND');
    expectError(await u.api('DELETE', `/smart-folders/${folder.id}`), 404, 'NOT_FOUND');
    expect(dataOf(await u.api('GET', `/bookmarks/${bookmark.id}`), Bookmark)).toMatchObject({ id: bookmark.id, tags: ['x'], deletedAt: null });
  });

  it('answers another user\'s folder like a missing one, and leaves it alone', async () => {
    const owner = await t.user();
    const other = await t.user();
    const folder = await createFolder(owner, tagRule('x'), 'Mine');
    expectError(await other.api('GET', `/smart-folders/${folder.id}`), 404, 'NOT_FOUND');
    expectError(await other.api('PATCH', `/smart-folders/${folder.id}`, { body: { name: 'Theirs' } }), 404, 'NOT_FOUND');
    expectError(await other.api('DELETE', `/smart-folders/${folder.id}`), 404, 'NOT_FOUND');
    expectError(await other.api('GET', `/smart-folders/${folder.id}/bookmarks`), 404, 'NOT_FOUND');
    expectError(await owner.api('GET', '/smart-folders/sf_missing'), 404, 'NOT_FOUND');
    expect(dataOf(await owner.api('GET', `/smart-folders/${folder.id}`), SmartFolder)).toEqual(folder);
  });
});

describe('smart folder validation', () => {
  const condition = (field: string, operator: string, value: unknown) => ({ field, operator, value });
  const body = (conditions: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'F', rules: { match: 'all', conditions }, ...extra });
  const ok = condition('tag', 'equals', 'x');

  const cases: [string, unknown, RegExp][] = [
    ['an unknown field', body([ok, ok, condition('title', 'equals', 'x')]), /rules\.conditions\.2\.field: unknown field "title"; use one of tag, domain/],
    ['a missing field', body([{ operator: 'equals', value: 'x' }]), /rules\.conditions\.0\.field: is required/],
    ['an operator the field does not allow', body([condition('type', 'contains', 'video')]), /rules\.conditions\.0\.operator: operator "contains" is not allowed for field type; use equals/],
    ['gte on a tag', body([condition('tag', 'gte', 'x')]), /rules\.conditions\.0\.operator: operator "gte" is not allowed for field tag; use equals or contains/],
    ['equals on clickCount', body([condition('clickCount', 'equals', '1')]), /rules\.conditions\.0\.operator: .*use gte or lte/],
    ['a missing operator', body([{ field: 'tag', value: 'x' }]), /rules\.conditions\.0\.operator: is required/],
    ['more than 10 conditions', body(Array(11).fill(ok)), /rules\.conditions: must hold at most 10 conditions/],
    ['a type that does not exist', body([condition('type', 'equals', 'podcast')]), /rules\.conditions\.0\.value: .*link/],
    ['isFavorite not true or false', body([condition('isFavorite', 'equals', 'yes')]), /rules\.conditions\.0\.value:/],
    ['isFavorite as a boolean', body([condition('isFavorite', 'equals', true)]), /rules\.conditions\.0\.value:/],
    ['createdAfter not in milliseconds', body([condition('createdAfter', 'equals', '2024-01-01')]), /rules\.conditions\.0\.value: must be milliseconds since epoch/],
    ['createdBefore as a number', body([ok, condition('createdBefore', 'equals', 1700000000000)]), /rules\.conditions\.1\.value:/],
    ['a fractional click count', body([condition('clickCount', 'gte', '1.5')]), /rules\.conditions\.0\.value: must be a whole number/],
    ['a negative click count', body([condition('clickCount', 'lte', '-1')]), /rules\.conditions\.0\.value: must be a whole number/],
    ['an empty domain', body([condition('domain', 'equals', 'https://')]), /rules\.conditions\.0\.value: must name a domain/],
    ['an empty tag', body([condition('tag', 'contains', '   ')]), /rules\.conditions\.0\.value: must name a tag/],
    ['a match that is neither all nor any', { name: 'F', rules: { match: 'some', conditions: [] } }, /rules\.match:/],
    ['missing conditions', { name: 'F', rules: { match: 'all' } }, /rules\.conditions: is required/],
    ['missing rules', { name: 'F' }, /rules: is required/],
    ['a missing name', { rules: { match: 'all', conditions: [] } }, /name: is required/],
    ['a blank name', body([], { name: '  ' }), /name: must not be empty/],
    ['a name over 200 characters', body([], { name: 'n'.repeat(201) }), /name:/],
  ];

  it.each(cases)('refuses %s, naming the place, and stores nothing', async (_, payload, message) => {
    const u = await t.user();
    expect(expectError(await u.api('POST', '/smart-folders', { body: payload }), 400, 'VALIDATION_ERROR')).toMatch(message);
    expect(await listFolders(u)).toEqual([]);
  });

  it('refuses a bad patch and leaves the folder as it was', async () => {
    const u = await t.user();
    const folder = await createFolder(u, tagRule('x'));
    const patches: [unknown, RegExp][] = [
      [{ rules: { match: 'all', conditions: [condition('domain', 'gte', 'a.com')] } }, /rules\.conditions\.0\.operator:/],
      [{ owner: 'someone' }, /unknown field "owner"/],
      [{ name: '' }, /name: must not be empty/],
      [{ rules: null }, /rules:/],
    ];
    for (const [patch, message] of patches) {
      expect(expectError(await u.api('PATCH', `/smart-folders/${folder.id}`, { body: patch }), 400, 'VALIDATION_ERROR')).toMatch(message);
    }
    expect(dataOf(await u.api('GET', `/smart-folders/${folder.id}`), SmartFolder)).toEqual(folder);
  });
});

describe('smart folder evaluation', () => {
  let u: TestUser;
  const b: Record<'a' | 'b' | 'c' | 'd' | 'e', Bookmark> = {} as never;

  beforeAll(async () => {
    u = await t.user();
    const saves = {
      a: { url: 'https://www.Example.com/a', tags: ['Reading', 'dev/js'], type: 'article', isFavorite: true },
      b: { url: 'https://docs.example.com/b', tags: ['reading-list'] },
      c: { url: 'https://other.org/c', tags: ['misc'], type: 'video', isFavorite: true },
      d: { url: 'https://other.org/d', type: 'document' },
      e: { url: 'https://example.com/e', tags: ['Reading'], type: 'article', isFavorite: true },
    } as const;
    for (const [key, body] of Object.entries(saves)) {
      b[key as keyof typeof saves] = await save(u, body);
      await t.advance(1_000);
    }
    // The API has no way to set click counts: the link-click tracking that would is not part of it.
    const db = openRawDbOf(t);
    await db.run('UPDATE bookmarks SET click_count = ? WHERE id = ?', 2, b.a.id);
    await db.run('UPDATE bookmarks SET click_count = ? WHERE id = ?', 5, b.d.id);
    await db.close();
    expect(dataOf(await u.api('DELETE', `/bookmarks/${b.e.id}`), z.unknown())).toBeDefined();
  });

  const matching = async (rules: Rules): Promise<string[]> => {
    const folder = await createFolder(u, rules);
    const page = await evaluate(t, u, folder.id);
    expect(page.continueCursor).toBeNull();
    expect(page.truncated).toBe(false);
    return ids(page).sort();
  };
  const one = (field: string, operator: string, value: string): Rules => ({ match: 'all', conditions: [{ field, operator, value }] });
  const keys = (...names: (keyof typeof b)[]) => names.map((n) => b[n].id).sort();

  it.each([
    ['tag equals, case-insensitive exact name', one('tag', 'equals', 'READING'), ['a']],
    ['tag equals, not the ancestor of a hierarchical tag', one('tag', 'equals', 'dev'), []],
    ['tag equals, the hierarchical tag itself', one('tag', 'equals', 'Dev/JS'), ['a']],
    ['tag equals, a tag nobody has', one('tag', 'equals', 'nothing'), []],
    ['tag contains, case-insensitive substring of a name', one('tag', 'contains', 'READ'), ['a', 'b']],
    ['tag contains, within a hierarchical name', one('tag', 'contains', 'v/j'), ['a']],
    ['domain equals, normalised value against the stored domain', one('domain', 'equals', 'https://WWW.EXAMPLE.com/x'), ['a']],
    ['domain contains', one('domain', 'contains', 'example'), ['a', 'b']],
    ['type equals', one('type', 'equals', 'video'), ['c']],
    ['isFavorite equals true', one('isFavorite', 'equals', 'true'), ['a', 'c']],
    ['isFavorite equals false', one('isFavorite', 'equals', 'false'), ['b', 'd']],
    ['clickCount gte', one('clickCount', 'gte', '2'), ['a', 'd']],
    ['clickCount lte', one('clickCount', 'lte', '2'), ['a', 'b', 'c']],
    ['all of several conditions', { match: 'all', conditions: [{ field: 'tag', operator: 'contains', value: 'read' }, { field: 'isFavorite', operator: 'equals', value: 'true' }] }, ['a']],
    ['all, with an exact tag among them', { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'reading' }, { field: 'type', operator: 'equals', value: 'video' }] }, []],
    ['any of several conditions', { match: 'any', conditions: [{ field: 'type', operator: 'equals', value: 'video' }, { field: 'domain', operator: 'equals', value: 'example.com' }] }, ['a', 'c']],
    ['any, with an exact tag among them', { match: 'any', conditions: [{ field: 'tag', operator: 'equals', value: 'misc' }, { field: 'clickCount', operator: 'gte', value: '5' }] }, ['c', 'd']],
    ['all of two tag conditions, met by different tags of one bookmark', { match: 'all', conditions: [{ field: 'tag', operator: 'contains', value: 'read' }, { field: 'tag', operator: 'contains', value: 'js' }] }, ['a']],
    ['all of two tag conditions, met by one tag', { match: 'all', conditions: [{ field: 'tag', operator: 'contains', value: 'dev' }, { field: 'tag', operator: 'contains', value: '/j' }] }, ['a']],
    ['all of two tag conditions, met only by different bookmarks', { match: 'all', conditions: [{ field: 'tag', operator: 'contains', value: 'list' }, { field: 'tag', operator: 'contains', value: 'misc' }] }, []],
    ['all, with a tag condition naming no tag', { match: 'all', conditions: [{ field: 'tag', operator: 'contains', value: 'read' }, { field: 'tag', operator: 'contains', value: 'nothing' }] }, []],
    ['all, an exact tag with another tag condition', { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'reading' }, { field: 'tag', operator: 'contains', value: 'JS' }] }, ['a']],
    ['any of two tag conditions', { match: 'any', conditions: [{ field: 'tag', operator: 'contains', value: 'misc' }, { field: 'tag', operator: 'equals', value: 'Reading-List' }] }, ['b', 'c']],
    ['any, a tag condition naming no tag beside a column condition', { match: 'any', conditions: [{ field: 'tag', operator: 'equals', value: 'nothing' }, { field: 'type', operator: 'equals', value: 'video' }] }, ['c']],
    ['any of one condition, an exact tag', { match: 'any', conditions: [{ field: 'tag', operator: 'equals', value: 'misc' }] }, ['c']],
    ['no conditions under all: every active bookmark', { match: 'all', conditions: [] }, ['a', 'b', 'c', 'd']],
    ['no conditions under any: every active bookmark', { match: 'any', conditions: [] }, ['a', 'b', 'c', 'd']],
  ] as [string, Rules, (keyof typeof b)[]][])('%s', async (_, rules, expected) => {
    expect(await matching(rules)).toEqual(keys(...expected));
  });

  it('createdAfter and createdBefore compare strictly', async () => {
    const at = (x: Bookmark) => String(Date.parse(x.createdAt));
    expect(await matching(one('createdAfter', 'equals', at(b.b)))).toEqual(keys('c', 'd'));
    expect(await matching(one('createdBefore', 'equals', at(b.c)))).toEqual(keys('a', 'b'));
    const between = { match: 'all' as const, conditions: [{ field: 'createdAfter', operator: 'equals', value: at(b.a) }, { field: 'createdBefore', operator: 'equals', value: at(b.d) }] };
    expect(await matching(between)).toEqual(keys('b', 'c'));
  });

  it('returns whole bookmark objects, newest first for a scanned folder', async () => {
    const folder = await createFolder(u, one('domain', 'contains', 'o'));
    const page = await evaluate(t, u, folder.id);
    expect(ids(page)).toEqual([b.d.id, b.c.id, b.b.id, b.a.id]);
    expect(page.bookmarks[0]).toEqual(dataOf(await u.api('GET', `/bookmarks/${b.d.id}`), Bookmark));
  });

  it('writes nothing while evaluating, so that cached reads stay valid', async () => {
    const { store } = t.server.deps;
    const folder = await createFolder(u, { match: 'all', conditions: [{ field: 'tag', operator: 'contains', value: 'read' }, { field: 'tag', operator: 'contains', value: 'js' }] });
    const before = await store.version();
    expect((await store.smartFolders.evaluate(u.userId, folder.id, undefined))?.bookmarks.map((x) => x.id)).toEqual([b.a.id]);
    expect(await store.version()).toBe(before);
  });

  it('drops a bookmark once it is trashed, and shows it again once restored', async () => {
    const folder = await createFolder(u, one('tag', 'equals', 'misc'));
    const scanned = await createFolder(u, one('type', 'equals', 'video'));
    expect(ids(await evaluate(t, u, folder.id))).toEqual([b.c.id]);
    expect((await u.api('DELETE', `/bookmarks/${b.c.id}`)).status).toBe(200);
    expect(ids(await evaluate(t, u, folder.id))).toEqual([]);
    expect(ids(await evaluate(t, u, scanned.id))).toEqual([]);
    expect((await u.api('POST', `/bookmarks/${b.c.id}/restore`)).status).toBe(200);
    expect(ids(await evaluate(t, u, folder.id))).toEqual([b.c.id]);
  });

  it('never shows another user\'s bookmarks', async () => {
    const other = await t.user();
    await save(other, { url: 'https://example.com/theirs', tags: ['Reading'], type: 'video' });
    for (const rules of [one('tag', 'equals', 'reading'), one('type', 'equals', 'video'), { match: 'all' as const, conditions: [] }]) {
      const found = await matching(rules);
      expect(found.every((id) => Object.values(b).some((x) => x.id === id))).toBe(true);
    }
  });

  it('allows two evaluations a minute per user, then answers 429 with Retry-After', async () => {
    const folder = await createFolder(u, one('type', 'equals', 'video'));
    await t.advance(60_000);
    expect((await u.api('GET', `/smart-folders/${folder.id}/bookmarks`)).status).toBe(200);
    expect((await u.api('GET', `/smart-folders/${folder.id}/bookmarks`)).status).toBe(200);
    const third = await u.api('GET', `/smart-folders/${folder.id}/bookmarks`);
    expect(expectError(third, 429, 'RATE_LIMITED')).toBe('Rate limit exceeded');
    expect(Number(third.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Other users and other endpoints are not held back.
    const other = await t.user();
    expect((await other.api('GET', `/smart-folders/${folder.id}/bookmarks`)).status).toBe(404);
    expect((await u.api('GET', `/smart-folders/${folder.id}`)).status).toBe(200);
    expect((await evaluateRaw(t, u, folder.id)).status).toBe(200);
  });
});
