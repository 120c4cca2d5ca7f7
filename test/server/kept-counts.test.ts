import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Bookmark} from '../../lib/api/bookmarks.ts';
import { BookmarkStats, DomainCount, DuplicatesResult } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { save } from './bookmarks-fixtures.ts';
import { TYPES, countedAfresh } from './kept-counts-fixtures.ts';
import { importFile, netscapeFile } from './jobs-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

/** A change that must succeed: a refused one would leave nothing to count. */
async function ok(u: TestUser, ...call: Parameters<TestUser['api']>): Promise<void> {
  const res = await u.api(...call);
  expect(res.status, `${call[0]} ${call[1]}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
}

async function expectCountsRight(u: TestUser, step: string): Promise<void> {
  const fresh = await countedAfresh(db, u.userId);
  const collections = dataOf(await u.api('GET', '/collections'), z.array(Collection));
  expect({
    step,
    stats: dataOf(await u.api('GET', '/bookmarks/stats'), BookmarkStats),
    domains: dataOf(await u.api('GET', '/bookmarks/domains'), z.array(DomainCount)),
    perCollection: new Map(collections.map((c) => [c.id, c.bookmarkCount])),
    duplicates: dataOf(await u.api('GET', '/bookmarks/duplicates'), DuplicatesResult).groups.flatMap((g) =>
      g.bookmarks.map((b) => [g.normalizedUrl, b.id]),
    ),
  }).toEqual({ step, ...fresh });
}

describe('kept counts (collections, stats, domains, duplicates)', () => {
  let u: TestUser;
  let a: Collection;
  let b: Collection;
  let made: Bookmark[];

  beforeAll(async () => {
    u = await t.user();
    a = dataOf(await u.api('POST', '/collections', { body: { name: 'A' } }), Collection, 201);
    b = dataOf(await u.api('POST', '/collections', { body: { name: 'B', parentId: a.id } }), Collection, 201);
  });

  it('equal a fresh count after every kind of change', async () => {
    made = [];
    for (let i = 0; i < 6; i++) {
      made.push(await save(u, { url: `https://d${i % 3}.example/${i}`, title: `b${i}`, collectionId: i % 2 ? a.id : b.id, type: TYPES[i % 5] }));
    }
    await save(u, { url: 'https://unsorted.example/x' });
    // Saved again under other spellings of the same URL: duplicates.
    await save(u, { url: 'https://www.d0.example/0' });
    await save(u, { url: 'https://d0.example/0/', collectionId: a.id });
    await save(u, { url: 'https://www.d1.example/1' });
    await expectCountsRight(u, 'create');

    await ok(u, 'PUT', `/bookmarks/${made[0]!.id}/favorite`, { body: { isFavorite: true } });
    await ok(u, 'POST', '/bookmarks/bulk/favorite', { body: { ids: [made[1]!.id, made[2]!.id], isFavorite: true } });
    await expectCountsRight(u, 'favorite');

    await ok(u, 'POST', `/bookmarks/${made[0]!.id}/move`, { body: { collectionId: null } });
    await ok(u, 'POST', '/bookmarks/bulk/move', { body: { ids: [made[1]!.id, made[3]!.id], collectionId: b.id } });
    await expectCountsRight(u, 'move');

    await ok(u, 'PATCH', `/bookmarks/${made[2]!.id}`, { body: { url: 'https://elsewhere.example/2', type: 'video' } });
    await expectCountsRight(u, 'patch url and type');

    await ok(u, 'POST', `/bookmarks/${made[0]!.id}/tags`, { body: { name: 'one' } });
    await ok(u, 'POST', `/bookmarks/${made[0]!.id}/tags`, { body: { name: 'two' } });
    await ok(u, 'POST', '/bookmarks/bulk/tag', { body: { ids: [made[1]!.id, made[4]!.id], name: 'one' } });
    await expectCountsRight(u, 'tag');
    const tags = dataOf(await u.api('GET', '/tags'), z.array(Tag));
    const one = tags.find((x) => x.name === 'one')!;
    const two = tags.find((x) => x.name === 'two')!;
    await ok(u, 'DELETE', `/bookmarks/${made[0]!.id}/tags/${one.id}`);
    await ok(u, 'DELETE', '/bookmarks/bulk/tag', { body: { ids: [made[1]!.id], tagId: one.id } });
    await expectCountsRight(u, 'untag');
    await ok(u, 'POST', '/tags/merge', { body: { sourceTagId: two.id, targetTagId: one.id } });
    await expectCountsRight(u, 'merge tags');
    await ok(u, 'DELETE', `/tags/${one.id}`);
    await expectCountsRight(u, 'delete tag');

    await ok(u, 'DELETE', `/bookmarks/${made[0]!.id}`);
    await ok(u, 'POST', '/bookmarks/bulk/trash', { body: { ids: [made[1]!.id, made[5]!.id] } });
    await expectCountsRight(u, 'trash');
    await ok(u, 'POST', `/bookmarks/${made[1]!.id}/restore`);
    await save(u, { url: made[5]!.url }, 200);
    await expectCountsRight(u, 'restore, and save again from the trash');

    await ok(u, 'DELETE', `/collections/${a.id}`);
    await expectCountsRight(u, 'trash a collection');
    await ok(u, 'POST', `/collections/${a.id}/restore`);
    await expectCountsRight(u, 'restore a collection');

    await ok(u, 'DELETE', `/bookmarks/${made[3]!.id}`);
    await ok(u, 'DELETE', `/bookmarks/${made[3]!.id}/permanent`);
    await ok(u, 'DELETE', `/bookmarks/${made[4]!.id}/permanent`);
    await expectCountsRight(u, 'permanent delete');
    await ok(u, 'DELETE', `/bookmarks/${made[2]!.id}`);
    await ok(u, 'DELETE', '/bookmarks/trash');
    await expectCountsRight(u, 'empty the trash');

    await importFile(t, u, netscapeFile(40, { folders: 3 }));
    await expectCountsRight(u, 'import');
  });

  it('start at zero for a new user, and count only that user', async () => {
    const v = await t.user();
    await expectCountsRight(v, 'new user');
    await save(v, { url: 'https://d0.example/other-user' });
    await expectCountsRight(v, 'other user');
    await expectCountsRight(u, 'first user unchanged');
  });
});
