import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { dataOf } from '../support/expect.ts';
import { type TestServer, startTestServer } from '../support/server.ts';

/** A page on 127.0.0.1 that records what it was asked for. */
let page: http.Server;
let origin: string;
const requests: string[] = [];

beforeAll(async () => {
  page = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/slow') {
      // Slow enough that simultaneous saves all wait on their fetch before any of them inserts.
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<title>Slow</title>');
      }, 150);
      return;
    }
    if (req.url === '/missing') {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<title>Not Found</title>');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Local Page Title</title>
      <meta name="description" content="What the page says about itself"></head>
      <body><article><p>${'Body text of the page. '.repeat(20)}</p></article></body></html>`);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});
afterAll(async () => {
  page.closeAllConnections();
  await new Promise<void>((resolve) => page.close(() => resolve()));
});

describe('auto-detection with private fetches allowed', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ raiseLimits: true, allowPrivateFetch: true });
  });
  afterAll(() => t.close());

  it('fills title, description, excerpt and link status from the page', async () => {
    const u = await t.user();
    const b = dataOf(await u.api('POST', '/bookmarks', { body: { url: `${origin}/article` } }), Bookmark, 201);
    expect(b).toMatchObject({
      title: 'Local Page Title',
      description: 'What the page says about itself',
      excerpt: expect.stringContaining('Body text of the page.'),
      favicon: `${origin}/favicon.ico`,
      metadataStatus: 'complete',
      linkStatus: 'ok',
      httpStatusCode: 200,
      domain: '127.0.0.1',
    });
    expect(b.lastCheckedAt).toBe(b.createdAt);
  });

  it('lets supplied fields win over detected ones', async () => {
    const u = await t.user();
    const b = dataOf(await u.api('POST', '/bookmarks', { body: { url: `${origin}/mine`, title: 'My title', type: 'video' } }), Bookmark, 201);
    expect(b).toMatchObject({ title: 'My title', description: 'What the page says about itself', type: 'video', metadataStatus: 'complete' });
  });

  it('marks a page that answers 404 as failed and broken, with the URL as title', async () => {
    const u = await t.user();
    const b = dataOf(await u.api('POST', '/bookmarks', { body: { url: `${origin}/missing` } }), Bookmark, 201);
    expect(b).toMatchObject({
      title: `${origin.replace('http://', '')}/missing`,
      description: '',
      metadataStatus: 'failed',
      linkStatus: 'broken',
      httpStatusCode: 404,
    });
  });

  it('creates one bookmark when five saves of one URL fetch the page at the same time', async () => {
    const u = await t.user();
    const results = await Promise.all(Array.from({ length: 5 }, () => u.api('POST', '/bookmarks', { body: { url: `${origin}/slow` } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => dataOf(r, Bookmark, r.status).id)).size).toBe(1);
    const list = (await u.api('GET', '/bookmarks')).body as { data: { data: unknown[] } };
    expect(list.data.data).toHaveLength(1);
  });

  it('does not fetch when title and description are supplied, nor for a URL already saved', async () => {
    const u = await t.user();
    const seen = requests.length;
    const b = dataOf(await u.api('POST', '/bookmarks', { body: { url: `${origin}/quiet`, title: 'T', description: 'D' } }), Bookmark, 201);
    expect(b).toMatchObject({ metadataStatus: 'skipped', linkStatus: 'unchecked', httpStatusCode: 0, favicon: `${origin}/favicon.ico` });
    dataOf(await u.api('POST', '/bookmarks', { body: { url: `${origin}/quiet` } }), Bookmark, 200);
    expect(requests.length).toBe(seen);
  });
});

describe('auto-detection behind the SSRF guard (the default)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ raiseLimits: true });
  });
  afterAll(() => t.close());

  it('never fetches a loopback URL: metadata skipped, URL as title', async () => {
    const u = await t.user();
    const seen = requests.length;
    const b = dataOf(await u.api('POST', '/bookmarks', { body: { url: `${origin}/article` } }), Bookmark, 201);
    expect(b).toMatchObject({
      title: `${origin.replace('http://', '')}/article`,
      description: '',
      metadataStatus: 'skipped',
      linkStatus: 'unchecked',
      httpStatusCode: 0,
    });
    expect(b.lastCheckedAt).toBe(b.createdAt);
    expect(requests.length).toBe(seen);
  });
});
