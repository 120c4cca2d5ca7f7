// @vitest-environment node
// Node's fetch and no DOM, as in Chrome's background service worker (which converts images elsewhere: in the browser tests).
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { CoverRequest } from '../../entrypoints/background/covers.ts';
import { Bookmark, BookmarkPage } from '../../lib/api/bookmarks.ts';
import { MAX_COVER_BYTES, STORAGE_QUOTA_BYTES } from '../../lib/api/covers.ts';
import { ClientError, toClientError } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import { userItem } from '../../lib/storage/items.ts';
import { dataOf } from '../support/expect.ts';
import { SVG, png } from '../support/images.ts';
import { type TestServer, type TestUser, openDb, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';
import { failure } from './support/failure.ts';

const MINUTE = 60_000;
const PNG = png(64, 40);

let t: TestServer;
let db: Database.Database;
let site: { origin: string; close(): Promise<void> };
let bg: TestBackground;
let u: TestUser;

/** A web site with images: each path answers its bytes and type, or an HTML page. */
const IMAGES: Record<string, { body: Uint8Array | string; type: string; chunked?: boolean }> = {
  '/cover.png': { body: PNG, type: 'image/png' },
  '/second.png': { body: png(10, 10, { rgb: [0, 128, 0] }), type: 'image/png' },
  '/drawing.svg': { body: SVG, type: 'image/svg+xml' },
  '/page.html': { body: '<!doctype html><title>Not an image</title>', type: 'text/html; charset=utf-8' },
  '/huge.png': { body: new Uint8Array(12 * 1024 * 1024).fill(7), type: 'image/png' },
  '/huge-streamed.png': { body: new Uint8Array(12 * 1024 * 1024).fill(7), type: 'image/png', chunked: true },
};

function answer(req: IncomingMessage, res: ServerResponse): void {
  const image = IMAGES[new URL(req.url ?? '/', 'http://x').pathname];
  if (!image) {
    res.writeHead(404).end('not found');
    return;
  }
  const body = typeof image.body === 'string' ? Buffer.from(image.body) : Buffer.from(image.body);
  if (image.chunked) {
    // No Content-Length: the size shows only as the bytes arrive.
    res.writeHead(200, { 'Content-Type': image.type });
    for (let at = 0; at < body.length; at += 1 << 20) res.write(body.subarray(at, at + (1 << 20)));
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': image.type, 'Content-Length': String(body.length) }).end(body);
}

beforeAll(async () => {
  t = await startTestServer();
  db = openDb(t);
  const server: Server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
});
afterAll(async () => {
  db.close();
  await Promise.all([t.close(), site.close()]);
});

beforeEach(async () => {
  fakeBrowser.reset();
  bg = createTestBackground();
  u = await t.user();
  // All requests come from 127.0.0.1: each test starts in a fresh gateway minute.
  await t.advance(2 * MINUTE);
  stubPageFetch(t);
  await bg.services.account.signIn(t.baseUrl, u.token);
  await bg.idle();
  bg.requests.length = 0;
});
afterEach(async () => {
  await bg.idle();
  vi.restoreAllMocks();
});

const PAGE = 'https://example.com/articles/covers';
const cover = (srcUrl: string, pageUrl = PAGE): CoverRequest => ({ srcUrl, pageUrl, pageTitle: 'Covers, explained' });
const img = (path: string) => site.origin + path;

/** The requests of the flow, as "METHOD /path" with ids and tokens left out. */
const flow = () =>
  bg.requests.map(({ method, url }) => {
    const { origin, pathname } = new URL(url);
    const path = pathname.replace(/\/bm_[^/]+/, '/:id').replace(/\/uploads\/.+$/, '/uploads/:token');
    return `${method} ${origin === site.origin ? 'site' : ''}${path}`;
  });

const STEPS = ['POST /v1/bookmarks/:id/cover/upload-url', 'POST /storage/uploads/:token', 'POST /v1/bookmarks/:id/cover'];
/** A page not saved yet: looked up by its URL first (the index may be behind), then saved. */
const SAVE = ['GET /v1/bookmarks', 'POST /v1/bookmarks'];

async function bookmarksOf(user = u): Promise<Bookmark[]> {
  return dataOf(await user.api('GET', '/bookmarks?limit=100'), BookmarkPage).data;
}

const reservations = (userId = u.userId) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM upload_reservations WHERE user_id = ? AND kind = 'cover'`).get(userId) as { n: number }).n;

async function coverBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe('set as cover', () => {
  it('saves a page not saved yet (looked up by URL, then one request), then runs the three steps, and the cover reads back byte for byte', async () => {
    const set = await bg.services.covers.set(cover(img('/cover.png')));

    expect(flow()).toEqual(['GET site/cover.png', ...SAVE, ...STEPS]);
    expect(set.savedPage).toBe(true);
    const [saved] = await bookmarksOf();
    expect(saved).toMatchObject({ url: PAGE, title: 'Covers, explained', coverImage: set.url });
    expect(await coverBytes(set.url)).toEqual(PNG);
    // The saved page is in the index: the toolbar icon and the popup know it.
    expect(await bg.services.index.lookup(PAGE)).toBe(saved!.id);
  });

  it('gives a saved page its cover without saving it again, and replaces a cover it had', async () => {
    const first = await bg.services.covers.set(cover(img('/cover.png')));
    bg.requests.length = 0;

    const second = await bg.services.covers.set(cover(img('/second.png')));

    expect(flow()).toEqual(['GET site/second.png', 'GET /v1/bookmarks/:id', ...STEPS]);
    expect(second.savedPage).toBe(false);
    expect(await bookmarksOf()).toEqual([expect.objectContaining({ coverImage: second.url })]);
    expect(await coverBytes(second.url)).toEqual(IMAGES['/second.png']!.body);
    expect((await fetch(first.url)).status).toBe(404);
  });

  it('takes a data: image as it is', async () => {
    const dataUrl = `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`;
    const set = await bg.services.covers.set(cover(dataUrl));
    expect(await coverBytes(set.url)).toEqual(PNG);
  });

  it('runs covers one at a time: never two reservations at once', async () => {
    const pages = ['https://example.com/one', 'https://example.com/two', 'https://example.com/three'];
    await Promise.all(pages.map((page) => bg.services.covers.set(cover(img('/cover.png'), page))));

    const api = flow().filter((line) => !line.includes('site/'));
    expect(api).toEqual([...SAVE, ...STEPS, ...SAVE, ...STEPS, ...SAVE, ...STEPS]);
    expect((await bookmarksOf()).every((b) => b.coverImage !== null)).toBe(true);
  });

  it('asks for a fresh reservation once when the first one expired before its upload', async () => {
    const realFetch = globalThis.fetch;
    let expired = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input).includes('/storage/uploads/') && expired++ === 0) await t.advance(16 * MINUTE);
      return realFetch(input, init);
    });

    const set = await bg.services.covers.set(cover(img('/cover.png')));

    expect(flow()).toEqual(['GET site/cover.png', ...SAVE, STEPS[0], STEPS[1], ...STEPS]);
    expect(await coverBytes(set.url)).toEqual(PNG);
  });

  it('retries only once: a second spent reservation is said in words', async () => {
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input).includes('/storage/uploads/')) await t.advance(16 * MINUTE);
      return realFetch(input, init);
    });

    const err = await failure(bg.services.covers.set(cover(img('/cover.png'))));

    expect(err.code).toBe('RESERVATION_INVALID');
    expect(flow().filter((line) => line === STEPS[0])).toHaveLength(2);
    expect((await bookmarksOf())[0]!.coverImage).toBeNull();
  });

  it('removes a cover (the popup’s Remove cover)', async () => {
    const set = await bg.services.covers.set(cover(img('/cover.png')));
    const [saved] = await bookmarksOf();
    expect(await bg.handlers.removeCover({ id: saved!.id })).toEqual({ success: true });
    expect((await bookmarksOf())[0]!.coverImage).toBeNull();
    expect((await fetch(set.url)).status).toBe(404);
  });
});

describe('images the API would refuse', () => {
  it('refuses an image over 10 MB before any request, whether its size is announced or only arrives', async () => {
    for (const path of ['/huge.png', '/huge-streamed.png']) {
      bg.requests.length = 0;
      const err = await failure(bg.services.covers.set(cover(img(path))));
      expect(err.code).toBe('FILE_TOO_LARGE');
      expect(describeError(err).title).toBe('That image is larger than 10 MB.');
      expect(flow()).toEqual([`GET site${path}`]);
    }
    expect(await bookmarksOf()).toEqual([]);
    expect(reservations()).toBe(0);
  });

  it('says in words that an SVG cannot be converted where no DOM is at hand, and sends nothing', async () => {
    const err = await failure(bg.services.covers.set(cover(img('/drawing.svg'))));
    expect(err.code).toBe('IMAGE_UNSUPPORTED');
    expect(describeError(err)).toEqual({
      title: 'Shelf cannot use that image as a cover.',
      action: 'Shelf could not convert this SVG image to PNG; choose a JPEG, PNG, GIF or WebP image.',
    });
    expect(flow()).toEqual(['GET site/drawing.svg']);
    expect(await bookmarksOf()).toEqual([]);
  });

  it('recognises an SVG by its text when its server names no image type', async () => {
    const dataUrl = `data:text/plain,${encodeURIComponent(`<?xml version="1.0"?>\n${SVG}`)}`;
    const err = await failure(bg.services.covers.set(cover(dataUrl)));
    expect(err.message).toContain('this SVG image');
  });

  it('refuses what is not an image, and an image that cannot be downloaded, in words', async () => {
    const page = await failure(bg.services.covers.set(cover(img('/page.html'))));
    expect(page.code).toBe('IMAGE_UNSUPPORTED');
    expect(page.message).toBe('That address holds no image (it holds text/html).');

    const gone = await failure(bg.services.covers.set(cover(img('/gone.png'))));
    expect(gone.code).toBe('IMAGE_UNREADABLE');
    expect(describeError(gone).title).toBe('Shelf could not read that image.');
    expect(gone.message).toContain('answered 404');

    const other = await failure(bg.services.covers.set(cover('ftp://example.com/a.png')));
    expect(other.code).toBe('IMAGE_UNREADABLE');
    expect(await bookmarksOf()).toEqual([]);
  });
});

describe('the Pro plan and its limits', () => {
  it('tells an account moved to the free plan that covers need Pro, before anything is uploaded, and asks before the next one', async () => {
    await t.server.deps.store.accounts.setPlan(u.userId, 'free');

    const err = await failure(bg.services.covers.set(cover(img('/cover.png'))));
    expect(err.code).toBe('COVER_NEEDS_PRO');
    expect(describeError(err)).toEqual({ title: 'Cover images need the Pro plan.', action: 'Nothing was uploaded. Upgrade the account to Pro to set covers.' });
    expect(flow()).not.toContain(STEPS[0]);
    expect((await userItem.get())?.plan).toBe('free');

    // Known as free now: one check of the plan, and nothing else.
    bg.requests.length = 0;
    expect((await failure(bg.services.covers.set(cover(img('/cover.png'))))).code).toBe('COVER_NEEDS_PRO');
    expect(flow()).toEqual(['POST /v1/auth/verify']);
    expect(reservations()).toBe(0);

    // Back on Pro: the check says so, and the cover is set.
    await t.server.deps.store.accounts.setPlan(u.userId, 'pro');
    bg.requests.length = 0;
    await bg.services.covers.set(cover(img('/cover.png')));
    expect(flow()).toEqual(['POST /v1/auth/verify', 'GET site/cover.png', ...SAVE, ...STEPS]);
    expect((await userItem.get())?.plan).toBe('pro');
  });

  it('says that 5 uploads are waiting (TOO_MANY_PENDING_UPLOADS) and when to try again', async () => {
    const other = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://example.com/other' } }), Bookmark, 201);
    for (let i = 0; i < 5; i++) expect((await u.api('POST', `/bookmarks/${other.id}/cover/upload-url`)).status).toBe(201);

    const err = await failure(bg.services.covers.set(cover(img('/cover.png'))));

    expect(err.code).toBe('TOO_MANY_PENDING_UPLOADS');
    expect(describeError(err)).toEqual({
      title: 'Too many cover uploads are waiting to finish (5 at most).',
      action: 'Try again when the oldest expires, within 15 minutes.',
    });
    expect(flow()).not.toContain(STEPS[1]);
  });

  it('says that the 500 MB of cover storage is full (STORAGE_LIMIT_REACHED)', async () => {
    await bg.services.covers.set(cover(img('/cover.png'), 'https://example.com/first'));
    // The first cover now counts as all but a few bytes of the quota.
    db.prepare(`UPDATE stored_files SET size = ? WHERE user_id = ? AND attached_at IS NOT NULL`).run(STORAGE_QUOTA_BYTES - 100, u.userId);

    const err = await failure(bg.services.covers.set(cover(img('/cover.png'), 'https://example.com/second')));

    expect(err.code).toBe('STORAGE_LIMIT_REACHED');
    expect(describeError(err)).toEqual({ title: 'Your 500 MB of cover storage is full.', action: 'Remove some covers, then try again.' });
    const second = (await bookmarksOf()).find((b) => b.url === 'https://example.com/second');
    expect(second?.coverImage).toBeNull();
  });

  it('has a sentence for each refusal of a cover, in the one mapping of codes to text', () => {
    const said = (code: ClientError['code']) => describeError(toClientError(new ClientError(code, 'server words'))).title;
    expect(said('INVALID_FILE_TYPE')).toBe('That file is not a JPEG, PNG, GIF or WebP image.');
    expect(said('FILE_TOO_LARGE')).toMatch(/10 MB/);
    expect(said('STORAGE_LIMIT_REACHED')).toMatch(/500 MB/);
    expect(said('TOO_MANY_PENDING_UPLOADS')).toMatch(/5 at most/);
    expect(MAX_COVER_BYTES).toBe(10 * 1024 * 1024);
  });
});
