import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS_PER_INPUT } from '../../server/http/router.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';

let t: TestServer;
let u: TestUser;
beforeAll(async () => {
  t = await startTestServer({ raiseLimits: true });
  u = await t.user();
  for (const n of [1, 2, 3]) {
    expect((await u.api('POST', '/bookmarks', { body: { url: `https://input.example.org/${n}`, title: `T${n}`, description: '' } })).status).toBe(201);
  }
});
afterAll(() => t.close());

const titles = async (path: string): Promise<string[]> => {
  const res = await u.api('GET', path);
  expect(res.status).toBe(200);
  return (res.body as { data: { data: { title: string }[] } }).data.data.map((b) => b.title);
};

describe("a read's input, remembered per URL", () => {
  it('refuses bad input every time it is sent, with the same message', async () => {
    const first = await u.api('GET', '/bookmarks?limit=abc');
    const again = await u.api('GET', '/bookmarks?limit=abc');
    expect(first.status).toBe(400);
    expect(again.status).toBe(400);
    expect((again.body as { error: unknown }).error).toEqual((first.body as { error: unknown }).error);
  });

  it('answers each URL after its own input, past the number of URLs remembered and for URLs too long to remember', async () => {
    expect(await titles('/bookmarks?limit=1')).toEqual(['T3']);
    for (let i = 0; i < 600; i++) expect(await titles(`/bookmarks?limit=2&x${i}=y`)).toEqual(['T3', 'T2']);
    expect(await titles('/bookmarks?limit=1')).toEqual(['T3']);
    const long = `/bookmarks?limit=1&pad=${'p'.repeat(600)}`;
    expect(await titles(long)).toEqual(['T3']);
    expect(await titles(long)).toEqual(['T3']);
    expect(await titles('/bookmarks?limit=3&sortBy=oldest')).toEqual(['T1', 'T2', 'T3']);
  });

  it('is the same input for every user, each answered from their own data', async () => {
    const other = await t.user();
    expect((await other.api('POST', '/bookmarks', { body: { url: 'https://input.example.org/other', title: 'Other', description: '' } })).status).toBe(201);
    expect(await titles('/bookmarks?limit=1')).toEqual(['T3']);
    const theirs = await other.api('GET', '/bookmarks?limit=1');
    expect((theirs.body as { data: { data: { title: string }[] } }).data.data.map((b) => b.title)).toEqual(['Other']);
  });

  it('answers each user from their own data, past the users whose cache keys one URL keeps', async () => {
    const users = [];
    for (let i = 0; i < KEYS_PER_INPUT + 4; i++) {
      const user = await t.user();
      const created = await user.api('POST', '/bookmarks', { body: { url: `https://input.example.org/u${i}`, title: `U${i}`, description: '' } });
      expect(created.status).toBe(201);
      users.push(user);
    }
    for (const round of [1, 2]) {
      for (const [i, user] of users.entries()) {
        const res = await user.api('GET', '/bookmarks?limit=5');
        expect((res.body as { data: { data: { title: string }[] } }).data.data.map((b) => b.title), `user ${i}, round ${round}`).toEqual([`U${i}`]);
      }
    }
  });
});
