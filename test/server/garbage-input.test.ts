import { describe, expect, it } from 'vitest';
import { type Endpoint, endpoints } from '../../lib/api/endpoints.ts';
import type { TestUser } from '../support/server.ts';
import { withServerAndUser } from '../support/server-per-file.ts';

/**
 * No input may produce a 5xx: every route gets malformed ids, queries and
 * bodies, and must answer each with a 4xx error envelope.
 */
const all = Object.values(endpoints) as Endpoint[];

const weirdSegments = ['%00', 'x'.repeat(300), '..%2F..%2Fetc', '%F0%9F%92%A9', "'; DROP TABLE bookmarks; --", '-1', '1e309'];
const weirdQueries = ['limit=-5', 'limit=abc', 'limit=99999999999999999999', 'cursor=%FF%FE', 'cursor=' + 'A'.repeat(5000), 'sortBy=sideways', 'isFavorite=maybe', 'type=podcast', 'q=%25%5F', 'limit=1&limit=2'];
const weirdBodies: unknown[] = [null, [], 42, 'text', { name: { nested: true } }, { ids: Array.from({ length: 51 }, (_, i) => `bm_${i}`) }, { url: 'javascript:alert(1)' }, { rules: { match: 'some', conditions: 'all' } }, { tags: [''.padEnd(300, 'x')] }, { jobId: ['x'], storageId: {} }];

let u: TestUser;
withServerAndUser((started) => ({ u } = started), { raiseLimits: true });

function pathWith(e: Endpoint, segment: string): string {
  return e.path.replace(':format', 'json').replace(':name{.+}', segment).replace(/:[a-zA-Z]+/g, segment);
}

describe.each(all.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', (_, e) => {
  it('answers malformed ids, queries and bodies without a server error', async () => {
    const statuses: number[] = [];
    const send = async (path: string, body?: unknown, raw?: string) => {
      const res = await u.api(e.method, path, raw !== undefined ? { body: raw } : body === undefined ? {} : { body });
      statuses.push(res.status);
      if (res.status >= 500) throw new Error(`${e.method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      if (e.response !== null || res.status >= 400) expect(res.body, `${e.method} ${path}`).toHaveProperty('meta.requestId');
    };
    for (const segment of weirdSegments) await send(pathWith(e, segment));
    for (const query of weirdQueries) await send(`${pathWith(e, 'x_1')}?${query}`);
    if (e.method !== 'GET') {
      for (const body of weirdBodies) await send(pathWith(e, 'x_1'), body);
      await send(pathWith(e, 'x_1'), undefined, '{"unterminated": ');
    }
    expect(statuses.length).toBeGreaterThan(0);
  });
});
