import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Collection } from '../../lib/api/collections.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const key = (name: string) => ({ 'Idempotency-Key': `${name}-${Math.random().toString(36).slice(2)}` });

describe('Idempotency-Key', () => {
  it('answers a repeated create with the first response and creates nothing more', async () => {
    const u = await t.user();
    const headers = key('create');
    const first = await u.api('POST', '/collections', { body: { name: 'Reading' }, headers });
    const created = dataOf(first, Collection, 201);
    const again = await u.api('POST', '/collections', { body: { name: 'Reading' }, headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const all = dataOf(await u.api('GET', '/collections'), z.array(Collection));
    expect(all.map((c) => c.id)).toEqual([created.id]);
  });

  it('refuses the same key with a different body, and changes nothing', async () => {
    const u = await t.user();
    const headers = key('mismatch');
    dataOf(await u.api('POST', '/collections', { body: { name: 'One' }, headers }), Collection, 201);
    const message = expectError(await u.api('POST', '/collections', { body: { name: 'Two' }, headers }), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(message).toMatch(/different request/);
    expect(dataOf(await u.api('GET', '/collections'), z.array(Collection)).map((c) => c.name)).toEqual(['One']);
  });

  it('treats the same key on another path as a different request', async () => {
    const u = await t.user();
    const headers = key('path');
    dataOf(await u.api('POST', '/collections', { body: { name: 'x' }, headers }), Collection, 201);
    expectError(await u.api('POST', '/tags', { body: { name: 'x' }, headers }), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps keys per user', async () => {
    const a = await t.user();
    const b = await t.user();
    const headers = { 'Idempotency-Key': 'shared-key' };
    const fromA = dataOf(await a.api('POST', '/collections', { body: { name: 'Mine' }, headers }), Collection, 201);
    const fromB = dataOf(await b.api('POST', '/collections', { body: { name: 'Mine' }, headers }), Collection, 201);
    expect(fromB.id).not.toBe(fromA.id);
  });

  it('creates once when the same request arrives several times at once', async () => {
    const u = await t.user();
    const headers = key('concurrent');
    const body = { url: 'https://example.com/concurrent', title: 'Concurrent', description: 'd' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => u.api('POST', '/bookmarks', { body, headers })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
  });

  it('does not keep a failed answer: a retry with the key runs again', async () => {
    const u = await t.user();
    const headers = key('retry');
    expectError(await u.api('POST', '/collections', { body: { name: '' }, headers }), 400, 'VALIDATION_ERROR');
    dataOf(await u.api('POST', '/collections', { body: { name: 'Fixed' }, headers }), Collection, 201);
  });

  it('forgets a key after 24 hours', async () => {
    const u = await t.user();
    const headers = key('expiry');
    dataOf(await u.api('POST', '/collections', { body: { name: 'Daily' }, headers }), Collection, 201);
    await t.advance(23 * HOUR);
    dataOf(await u.api('POST', '/collections', { body: { name: 'Daily' }, headers }), Collection, 201);
    expect(dataOf(await u.api('GET', '/collections'), z.array(Collection))).toHaveLength(1);
    await t.advance(HOUR + 1000);
    dataOf(await u.api('POST', '/collections', { body: { name: 'Daily' }, headers }), Collection, 201);
    expect(dataOf(await u.api('GET', '/collections'), z.array(Collection))).toHaveLength(2);
  });

  it('refuses a malformed key', async () => {
    const u = await t.user();
    const res = await u.api('POST', '/collections', { body: { name: 'k' }, headers: { 'Idempotency-Key': 'x'.repeat(300) } });
    expect(expectError(res, 400, 'VALIDATION_ERROR')).toMatch(/Idempotency-Key/);
    expect(dataOf(await u.api('GET', '/collections'), z.array(Collection))).toHaveLength(0);
  });
});

describe('Idempotency-Key on a heavy endpoint', () => {
  it('replays a repeated export without spending the heavy budget', async () => {
    const { JobCreated } = await import('../../lib/api/jobs.ts');
    const u = await t.user();
    const headers = key('heavy');
    const first = dataOf(await u.api('POST', '/export/json', { headers }), JobCreated, 201);
    for (let i = 0; i < 3; i++) {
      expect(dataOf(await u.api('POST', '/export/json', { headers }), JobCreated, 201)).toEqual(first);
    }
    // The budget (2 a minute) still has room for one more real export, then it is spent.
    dataOf(await u.api('POST', '/export/json'), JobCreated, 201);
    expectError(await u.api('POST', '/export/json'), 429, 'RATE_LIMITED');
  });
});
