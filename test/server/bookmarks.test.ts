import { describe, expect, it } from 'vitest';
import { Bookmark, BookmarkPage } from '../../lib/api/bookmarks.ts';
import { DeletedResult } from '../../lib/api/bookmarks.ts';
import { dataOf, expectError } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { addCollection, getBookmark, save, trashCollection, updatedMs } from './bookmarks-fixtures.ts';
import { rawRow } from './collections-tags-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

const countOf = async (u: TestUser): Promise<number> =>
  dataOf(await u.api('GET', '/bookmarks?limit=200'), BookmarkPage).data.length;

describe('POST /bookmarks', () => {
  it('creates a bookmark with the supplied fields and answers 201', async () => {
    const u = await t.user();
    const col = await addCollection(db, u.userId);
    const b = await save(u, {
      url: 'https://www.Example.com/a/page?utm_source=x',
      title: '  My page  ',
      description: 'About it',
      note: 'read later',
      tags: ['Work/Reading', 'later', 'LATER'],
      collectionId: col,
      type: 'article',
      isFavorite: true,
    });
    expect(b).toMatchObject({
      url: 'https://www.Example.com/a/page?utm_source=x',
      title: 'My page',
      description: 'About it',
      excerpt: '',
      note: 'read later',
      type: 'article',
      isFavorite: true,
      tags: ['later', 'Work/Reading'],
      collectionId: col,
      domain: 'example.com',
      favicon: 'https://www.example.com/favicon.ico',
      coverImage: null,
      clickCount: 0,
      metadataStatus: 'skipped',
      linkStatus: 'unchecked',
      httpStatusCode: 0,
      deletedAt: null,
    });
    expect(b.id).toMatch(/^bm_/);
    expect(b.lastCheckedAt).toBe(b.createdAt);
    expect(b.updatedAt).toBe(b.createdAt);
    expect(await getBookmark(u, b.id)).toEqual(b);
  });

  it('defaults: Unsorted, not favorite, type link, no note, no tags', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://defaults.example/' });
    expect(b).toMatchObject({ collectionId: null, isFavorite: false, type: 'link', note: '', tags: [] });
  });

  it('answers 200 with the same bookmark, updated, when the exact URL is already saved', async () => {
    const u = await t.user();
    const first = await save(u, { url: 'https://same.example/x', note: 'keep me', tags: ['a', 'b'], isFavorite: true });
    await t.advance(1000);
    const again = await save(u, { url: 'https://same.example/x', title: 'New title', tags: ['c'] }, 200);
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ title: 'New title', note: 'keep me', tags: ['c'], isFavorite: true });
    expect(again.createdAt).toBe(first.createdAt);
    expect(updatedMs(again)).toBeGreaterThan(updatedMs(first));
    expect(await countOf(u)).toBe(1);
  });

  it('leaves an existing bookmark as it is when only the URL is posted again', async () => {
    const u = await t.user();
    const first = await save(u, { url: 'https://only-url.example/' });
    const res = await u.api('POST', '/bookmarks', { body: { url: 'https://only-url.example/' } });
    expect(dataOf(res, Bookmark, 200)).toEqual(first);
  });

  it('creates near-duplicates (other scheme, www, tracking parameters) as separate bookmarks', async () => {
    const u = await t.user();
    const a = await save(u, { url: 'https://near.example/p' });
    const b = await save(u, { url: 'http://www.near.example/p?utm_medium=mail' });
    expect(b.id).not.toBe(a.id);
    expect(await countOf(u)).toBe(2);
  });

  it('restores a trashed bookmark with the same URL instead of creating one (200)', async () => {
    const u = await t.user();
    const first = await save(u, { url: 'https://trashed.example/', note: 'old note' });
    await u.api('DELETE', `/bookmarks/${first.id}`);
    const again = await save(u, { url: 'https://trashed.example/', isFavorite: true }, 200);
    expect(again).toMatchObject({ id: first.id, deletedAt: null, note: 'old note', isFavorite: true });
    expect(await countOf(u)).toBe(1);
  });

  it('restores into Unsorted when the trashed bookmark came from a trashed collection, or into a supplied collection', async () => {
    const u = await t.user();
    const col = await addCollection(db, u.userId);
    const b = await save(u, { url: 'https://in-col.example/', collectionId: col });
    await trashCollection(db, col, t.server.deps.clock.now());
    const restored = await save(u, { url: 'https://in-col.example/' }, 200);
    expect(restored).toMatchObject({ id: b.id, collectionId: null, deletedAt: null });
    expect(await rawRow(db, 'bookmarks', b.id)).toMatchObject({ trash_root: null });

    const other = await addCollection(db, u.userId);
    const c = await save(u, { url: 'https://in-col2.example/', collectionId: other });
    await trashCollection(db, other, t.server.deps.clock.now());
    const target = await addCollection(db, u.userId);
    expect(await save(u, { url: 'https://in-col2.example/', collectionId: target }, 200)).toMatchObject({ id: c.id, collectionId: target });
  });

  it('never blanks the title of an existing bookmark with an empty one', async () => {
    const u = await t.user();
    const first = await save(u, { url: 'https://keep-title.example/', title: 'Kept' });
    expect(await save(u, { url: 'https://keep-title.example/', title: '' }, 200)).toMatchObject({ id: first.id, title: 'Kept' });
  });

  it('refuses an unknown, trashed or foreign collection with 404 and saves nothing', async () => {
    const u = await t.user();
    const stranger = await t.user();
    const foreign = await addCollection(db, stranger.userId);
    const trashed = await addCollection(db, u.userId, { deletedAt: 1 });
    for (const collectionId of ['col_nope', foreign, trashed]) {
      const res = await u.api('POST', '/bookmarks', { body: { url: 'https://nocol.example/', title: 'x', description: '', collectionId } });
      expect(expectError(res, 404, 'NOT_FOUND')).toContain(collectionId);
    }
    expect(await countOf(u)).toBe(0);
  });

  it('refuses an unknown collection for an existing URL and changes nothing', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://exists.example/' });
    const trashed = dataOf(await u.api('DELETE', `/bookmarks/${b.id}`), Bookmark);
    const res = await u.api('POST', '/bookmarks', { body: { url: 'https://exists.example/', title: 'Changed', collectionId: 'col_nope' } });
    expectError(res, 404, 'NOT_FOUND');
    expect(await getBookmark(u, b.id)).toEqual(trashed);
  });

  it.each([
    [{}, 'url'],
    [{ url: '' }, 'url'],
    [{ url: 'ftp://example.com/file' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'https://ok.example/', type: 'podcast' }, 'type'],
    [{ url: 'https://ok.example/', isFavorite: 'yes' }, 'isFavorite'],
    [{ url: 'https://ok.example/', tags: ['a//b'] }, 'tags'],
    [{ url: 'https://ok.example/', tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'tags'],
    [{ url: 'https://ok.example/', title: 'x'.repeat(2001) }, 'title'],
  ])('refuses invalid input %j with 400 naming %s', async (body, field) => {
    const u = await t.user();
    const res = await u.api('POST', '/bookmarks', { body });
    expect(expectError(res, 400, 'VALIDATION_ERROR')).toContain(field);
    expect(await countOf(u)).toBe(0);
  });

  // The same with metadata fetches in flight: bookmarks-metadata.test.ts.
  it('creates one bookmark when the same URL is posted five times at once', async () => {
    const u = await t.user();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        u.api('POST', '/bookmarks', { body: { url: 'https://race.example/', title: `T${i}`, description: '' } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(results.map((r) => dataOf(r, Bookmark, r.status).id));
    expect(ids.size).toBe(1);
    expect(await countOf(u)).toBe(1);
  });
});

describe('GET /bookmarks/:id', () => {
  it('answers 404 for unknown ids and 400 for ids that are not ids', async () => {
    const u = await t.user();
    expectError(await u.api('GET', '/bookmarks/bm_unknown'), 404, 'NOT_FOUND');
    expectError(await u.api('GET', `/bookmarks/${'x'.repeat(65)}`), 400, 'VALIDATION_ERROR');
  });
});

describe('PATCH /bookmarks/:id', () => {
  it('changes any subset of fields and moves updatedAt', async () => {
    const u = await t.user();
    const col = await addCollection(db, u.userId);
    const b = await save(u, { url: 'https://patch.example/a', tags: ['old'] });
    await t.advance(1000);
    const res = await u.api('PATCH', `/bookmarks/${b.id}`, {
      body: { title: 'T2', description: 'D2', excerpt: 'E2', note: 'N2', type: 'video', isFavorite: true, collectionId: col, tags: ['new/one'] },
    });
    const p = dataOf(res, Bookmark);
    expect(p).toMatchObject({ title: 'T2', description: 'D2', excerpt: 'E2', note: 'N2', type: 'video', isFavorite: true, collectionId: col, tags: ['new/one'] });
    expect(p.createdAt).toBe(b.createdAt);
    expect(updatedMs(p)).toBeGreaterThan(updatedMs(b));
    expect(await getBookmark(u, b.id)).toEqual(p);

    const back = dataOf(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { collectionId: null, tags: [] } }), Bookmark);
    expect(back).toMatchObject({ collectionId: null, tags: [], title: 'T2' });
  });

  it('re-derives domain and duplicate key from a new URL', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://before.example/a' });
    const p = dataOf(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { url: 'https://www.After.example/b/?utm_campaign=z' } }), Bookmark);
    expect(p).toMatchObject({ url: 'https://www.After.example/b/?utm_campaign=z', domain: 'after.example' });
    expect(await rawRow(db, 'bookmarks', b.id)).toMatchObject({ url_key: 'after.example/b' });
  });

  it('answers 409 when the new URL is exactly another active bookmark\'s, and changes nothing', async () => {
    const u = await t.user();
    const a = await save(u, { url: 'https://taken.example/' });
    const b = await save(u, { url: 'https://free.example/' });
    const res = await u.api('PATCH', `/bookmarks/${b.id}`, { body: { url: 'https://taken.example/', title: 'changed' } });
    expect(expectError(res, 409, 'CONFLICT')).toContain(a.id);
    expect(await getBookmark(u, b.id)).toEqual(b);
  });

  it('allows the URL of a trashed bookmark', async () => {
    const u = await t.user();
    const a = await save(u, { url: 'https://was-trashed.example/' });
    await u.api('DELETE', `/bookmarks/${a.id}`);
    const b = await save(u, { url: 'https://other.example/' });
    const p = dataOf(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { url: 'https://was-trashed.example/' } }), Bookmark);
    expect(p.url).toBe('https://was-trashed.example/');
  });

  it('uses the URL as title when the title is set empty', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://empty-title.example/p' });
    expect(dataOf(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { title: '   ' } }), Bookmark).title).toBe('empty-title.example/p');
  });

  it('answers an empty patch with the bookmark unchanged', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://empty-patch.example/' });
    await t.advance(1000);
    expect(dataOf(await u.api('PATCH', `/bookmarks/${b.id}`, { body: {} }), Bookmark)).toEqual(b);
  });

  it.each([
    [{ clickCount: -5 }, 'clickCount'],
    [{ colour: 'red' }, 'colour'],
    [{ url: 'javascript:alert(1)' }, 'url'],
    [{ type: 'book' }, 'type'],
    [{ collectionId: 5 }, 'collectionId'],
  ])('refuses %j with 400 naming %s and changes nothing', async (body, field) => {
    const u = await t.user();
    const b = await save(u, { url: 'https://strict.example/' });
    expect(expectError(await u.api('PATCH', `/bookmarks/${b.id}`, { body }), 400, 'VALIDATION_ERROR')).toContain(field);
    expect(await getBookmark(u, b.id)).toEqual(b);
  });

  it('answers 404 for an unknown collection and 409 for a trashed bookmark, changing nothing', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://patch-errors.example/' });
    expectError(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { title: 'x', collectionId: 'col_nope' } }), 404, 'NOT_FOUND');
    expect(await getBookmark(u, b.id)).toEqual(b);
    const trashed = dataOf(await u.api('DELETE', `/bookmarks/${b.id}`), Bookmark);
    expect(expectError(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { title: 'x' } }), 409, 'CONFLICT')).toContain('restore');
    expect(await getBookmark(u, b.id)).toEqual(trashed);
  });
});

describe('PUT /bookmarks/:id/favorite and POST /bookmarks/:id/move', () => {
  it('sets and clears the favorite flag', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://fav.example/' });
    expect(dataOf(await u.api('PUT', `/bookmarks/${b.id}/favorite`, { body: { isFavorite: true } }), Bookmark).isFavorite).toBe(true);
    expect((await getBookmark(u, b.id)).isFavorite).toBe(true);
    expect(dataOf(await u.api('PUT', `/bookmarks/${b.id}/favorite`, { body: { isFavorite: false } }), Bookmark).isFavorite).toBe(false);
  });

  it('moves into a collection and back to Unsorted', async () => {
    const u = await t.user();
    const col = await addCollection(db, u.userId);
    const b = await save(u, { url: 'https://move.example/' });
    expect(dataOf(await u.api('POST', `/bookmarks/${b.id}/move`, { body: { collectionId: col } }), Bookmark).collectionId).toBe(col);
    expect((await getBookmark(u, b.id)).collectionId).toBe(col);
    expect(dataOf(await u.api('POST', `/bookmarks/${b.id}/move`, { body: { collectionId: null } }), Bookmark).collectionId).toBeNull();
  });

  it('refuses bad bodies, unknown and trashed collections, and trashed bookmarks, changing nothing', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://fav-move-errors.example/' });
    const trashedCol = await addCollection(db, u.userId, { deletedAt: 1 });
    expectError(await u.api('PUT', `/bookmarks/${b.id}/favorite`, { body: {} }), 400, 'VALIDATION_ERROR');
    expectError(await u.api('PUT', `/bookmarks/${b.id}/favorite`, { body: { isFavorite: 'true' } }), 400, 'VALIDATION_ERROR');
    expectError(await u.api('POST', `/bookmarks/${b.id}/move`, { body: {} }), 400, 'VALIDATION_ERROR');
    expect(expectError(await u.api('POST', `/bookmarks/${b.id}/move`, { body: { collectionId: 'col_nope' } }), 404, 'NOT_FOUND')).toContain(
      'col_nope',
    );
    expectError(await u.api('POST', `/bookmarks/${b.id}/move`, { body: { collectionId: trashedCol } }), 404, 'NOT_FOUND');
    expect(await getBookmark(u, b.id)).toEqual(b);

    const col = await addCollection(db, u.userId);
    const trashed = dataOf(await u.api('DELETE', `/bookmarks/${b.id}`), Bookmark);
    expectError(await u.api('PUT', `/bookmarks/${b.id}/favorite`, { body: { isFavorite: true } }), 409, 'CONFLICT');
    expectError(await u.api('POST', `/bookmarks/${b.id}/move`, { body: { collectionId: col } }), 409, 'CONFLICT');
    expect(await getBookmark(u, b.id)).toEqual(trashed);
  });
});

describe("another user's bookmark", () => {
  it('answers 404 on every route with a bookmark id, and changes nothing', async () => {
    const owner = await t.user();
    const other = await t.user();
    const b = await save(owner, { url: 'https://private.example/', tags: ['mine'] });
    const tagId = (await db.get<{ id: string }>('SELECT id FROM tags WHERE user_id = ?', owner.userId))!.id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/bookmarks/${b.id}`],
      ['PATCH', `/bookmarks/${b.id}`, { title: 'stolen' }],
      ['DELETE', `/bookmarks/${b.id}`],
      ['POST', `/bookmarks/${b.id}/restore`],
      ['DELETE', `/bookmarks/${b.id}/permanent`],
      ['PUT', `/bookmarks/${b.id}/favorite`, { isFavorite: true }],
      ['POST', `/bookmarks/${b.id}/move`, { collectionId: null }],
      ['GET', `/bookmarks/${b.id}/tags`],
      ['POST', `/bookmarks/${b.id}/tags`, { name: 'stolen' }],
      ['DELETE', `/bookmarks/${b.id}/tags/${tagId}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await other.api(method, path, body === undefined ? {} : { body });
      expect(expectError(res, 404, 'NOT_FOUND'), `${method} ${path}`).toContain(b.id);
    }
    expect(await getBookmark(owner, b.id)).toEqual(b);
    // Saving the same URL as another user creates that user's own bookmark.
    const own = await save(other, { url: 'https://private.example/' });
    expect(own.id).not.toBe(b.id);
  });

  it('answers 404 for DELETE /bookmarks/:id/permanent of an unknown id', async () => {
    const u = await t.user();
    const res = await u.api('DELETE', '/bookmarks/bm_gone/permanent');
    expectError(res, 404, 'NOT_FOUND');
    expect(DeletedResult.safeParse(res.body).success).toBe(false);
  });
});
