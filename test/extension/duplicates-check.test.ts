// @vitest-environment node
// Node's fetch, as in the background service worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Duplicates, FIRST_GROUPS } from '../../entrypoints/background/duplicates.ts';
import { createApiClient } from '../../lib/client/api-client.ts';
import { failure } from './support/failure.ts';
import { type FakeServer, startFakeServer } from './support/network.ts';

const member = (id: string) => ({
  id,
  url: 'https://a.example/x',
  title: 'X',
  note: '',
  tags: [],
  collectionId: null,
  isFavorite: false,
  hasDescription: false,
  hasCover: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const group = (i: number) => ({ normalizedUrl: `a.example/${i}`, bookmarks: [member(`bkm_${i}a`), member(`bkm_${i}b`)] });
/** 20 groups, the one at `bad` not what the API promises. */
const answerWithBadGroup = (bad: number) => ({ data: { groups: Array.from({ length: 20 }, (_, i) => (i === bad ? { normalizedUrl: `a.example/${i}`, bookmarks: 'two' } : group(i))) } });

// A server that breaks the API's promise in one group: a real server never does.
let body: unknown;
let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)));
});
afterAll(() => fake.close());

const duplicates = () => new Duplicates({ client: async () => createApiClient({ baseUrl: fake.baseUrl, token: `tok_${'a'.repeat(64)}` }) }, { waitBefore: async () => 0 });

describe('the background’s check of the duplicate groups', () => {
  it('checks the first screen’s groups before it answers and the rest when they are asked for', async () => {
    body = answerWithBadGroup(12);
    const found = duplicates();
    const first = await found.find();
    expect(first.groups.map((g) => g.normalizedUrl)).toEqual(Array.from({ length: FIRST_GROUPS }, (_, i) => `a.example/${i}`));
    expect(first.total).toBe(20);
    expect(() => found.more(first.fetchedAt, FIRST_GROUPS)).toThrow(expect.objectContaining({ code: 'MALFORMED_RESPONSE' }));
  });

  it('refuses a search whose first screen holds a group of another shape', async () => {
    body = answerWithBadGroup(3);
    expect(await failure(duplicates().find())).toMatchObject({ code: 'MALFORMED_RESPONSE' });
  });
});
