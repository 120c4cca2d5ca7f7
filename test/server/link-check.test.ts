import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Bookmark, BookmarkPage, LinkStatusCount } from '../../lib/api/bookmarks.ts';
import { BulkResult } from '../../lib/api/bulk.ts';
import { LINK_CHECK_DEFAULTS, type LinkCheckConfig, parseServerConfig } from '../../server/config.ts';
import { checkLink } from '../../server/link-check/check-link.ts';
import { HostPace } from '../../server/link-check/host-pace.ts';
import { checkUrl, type GuardResult } from '../../server/metadata/index.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';

/** Local pages: each path answers as its name says; every request is counted by path. */
interface Pages {
  origin: string;
  hits: Map<string, number[]>;
  close(): Promise<void>;
}

async function startPages(host = '127.0.0.1'): Promise<Pages> {
  const hits = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, [...(hits.get(path) ?? []), Date.now()]);
    if (path.startsWith('/ok')) res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>ok</title>');
    else if (path.startsWith('/gone')) res.writeHead(404).end('not found');
    else if (path.startsWith('/removed')) res.writeHead(410).end();
    else if (path.startsWith('/moved')) res.writeHead(301, { Location: '/ok-new-home' }).end();
    else if (path.startsWith('/login')) res.writeHead(302, { Location: '/ok-login' }).end();
    else if (path.startsWith('/fails')) res.writeHead(503).end();
    else if (path.startsWith('/hangs')) return; // never answers
    else res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The timeout leaves room for a loaded machine: a page that answers must never look unreachable.
const fast: Partial<LinkCheckConfig> = { enabled: true, hostPaceMs: 0, timeoutMs: 2000, pollMs: 3_600_000 };

async function checkingServer(linkCheck: Partial<LinkCheckConfig> = {}, allowPrivateFetch = true): Promise<TestServer> {
  return startTestServer({ allowPrivateFetch, linkCheck: { ...LINK_CHECK_DEFAULTS, ...fast, ...linkCheck } });
}

/** Saves each URL with a title and description, so that nothing is fetched at save time (linkStatus unchecked). */
async function save(user: TestUser, urls: string[]): Promise<Bookmark[]> {
  const saved: Bookmark[] = [];
  for (const url of urls) saved.push(dataOf(await user.api('POST', '/bookmarks', { body: { url, title: url, description: 'd' } }), Bookmark, 201));
  return saved;
}

async function byUrl(user: TestUser): Promise<Map<string, Bookmark>> {
  const page = dataOf(await user.api('GET', '/bookmarks?limit=200'), BookmarkPage);
  return new Map(page.data.map((b) => [b.url, b]));
}

/** Runs the checker now and waits until it has nothing left to do. */
async function runCheck(t: TestServer): Promise<void> {
  t.server.deps.linkChecker.wake();
  await t.server.deps.linkChecker.idle();
}

let pages: Pages;
beforeAll(async () => {
  pages = await startPages();
});
afterAll(async () => {
  await pages.close();
});

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function track(t: Promise<TestServer>): Promise<TestServer> {
  const server = await t;
  servers.push(server);
  return server;
}

describe('link check statuses', () => {
  it('reports local pages that answer, are gone, moved, fail and never answer', async () => {
    const t = await track(checkingServer());
    const user = await t.user();
    const started = Date.now();
    const paths = ['/ok', '/gone', '/removed', '/moved', '/login', '/fails', '/hangs'];
    const saved = await save(user, paths.map((p) => pages.origin + p));
    await runCheck(t);
    const found = await byUrl(user);
    const status = (p: string) => {
      const b = found.get(pages.origin + p)!;
      return [b.linkStatus, b.httpStatusCode];
    };
    expect(status('/ok')).toEqual(['ok', 200]);
    expect(status('/gone')).toEqual(['broken', 404]);
    expect(status('/removed')).toEqual(['broken', 410]);
    expect(status('/moved')).toEqual(['redirected', 301]);
    expect(status('/login')).toEqual(['ok', 200]);
    expect(status('/fails')).toEqual(['error', 503]);
    expect(status('/hangs')).toEqual(['unreachable', 0]);
    // The check's time, not the save's.
    for (const b of saved) expect(Date.parse(found.get(b.url)!.lastCheckedAt)).toBeGreaterThanOrEqual(started);
    // The page that never answers costs the timeout (2 s), not more.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('lists bookmarks by link status and counts each status', async () => {
    const t = await track(checkingServer());
    const user = await t.user();
    await save(user, ['/ok-a', '/gone-a', '/gone-b', '/moved-a'].map((p) => pages.origin + p));
    await runCheck(t);
    const broken = dataOf(await user.api('GET', '/bookmarks?linkStatus=broken,redirected'), BookmarkPage);
    expect(broken.data.map((b) => b.url).sort()).toEqual(['/gone-a', '/gone-b', '/moved-a'].map((p) => pages.origin + p));
    const counts = dataOf(await user.api('GET', '/bookmarks/link-statuses'), z.array(LinkStatusCount));
    expect(counts).toEqual([
      { linkStatus: 'broken', count: 2 },
      { linkStatus: 'ok', count: 1 },
      { linkStatus: 'redirected', count: 1 },
    ]);
    const bad = expectError(await user.api('GET', '/bookmarks?linkStatus=broken,dead'), 400, 'VALIDATION_ERROR');
    expect(bad).toContain('linkStatus');
  });

  it('checks a link again only once it is due, or at once when asked to', async () => {
    const t = await track(checkingServer({ recheckMs: 60_000 }));
    const user = await t.user();
    const [bookmark] = await save(user, [`${pages.origin}/ok-again`]);
    await runCheck(t);
    await runCheck(t);
    expect(pages.hits.get('/ok-again')).toHaveLength(1);

    dataOf(await user.api('POST', '/bookmarks/bulk/check', { body: { ids: [bookmark!.id] } }), BulkResult);
    await t.server.deps.linkChecker.idle();
    expect(pages.hits.get('/ok-again')).toHaveLength(2);

    await t.advance(61_000);
    await runCheck(t);
    expect(pages.hits.get('/ok-again')).toHaveLength(3);
  });

  it('refuses a re-check of bookmarks the user does not have or has trashed, changing nothing', async () => {
    const t = await track(checkingServer());
    const user = await t.user();
    const [a, b] = await save(user, [`${pages.origin}/ok-x`, `${pages.origin}/ok-y`]);
    await runCheck(t);
    await user.api('DELETE', `/bookmarks/${b!.id}`);
    expect(expectError(await user.api('POST', '/bookmarks/bulk/check', { body: { ids: [a!.id, 'bm_nope'] } }), 404, 'NOT_FOUND')).toContain('bm_nope');
    expect(expectError(await user.api('POST', '/bookmarks/bulk/check', { body: { ids: [a!.id, b!.id] } }), 409, 'CONFLICT')).toContain(b!.id);
    expectError(await user.api('POST', '/bookmarks/bulk/check', { body: { ids: [] } }), 400, 'VALIDATION_ERROR');
    await runCheck(t);
    expect(pages.hits.get('/ok-x')).toHaveLength(1);
  });

  it('answers CONFLICT to a re-check on a server that does not check links', async () => {
    const t = await track(startTestServer());
    const user = await t.user();
    const [a] = await save(user, [`${pages.origin}/ok-off`]);
    expect(expectError(await user.api('POST', '/bookmarks/bulk/check', { body: { ids: [a!.id] } }), 409, 'CONFLICT')).toContain('does not check links');
    await runCheck(t);
    expect(pages.hits.get('/ok-off')).toBeUndefined();
  });
});

describe('link check SSRF guard', () => {
  it('never fetches loopback or private addresses without --allow-private-fetch (they stay unchecked)', async () => {
    const t = await track(checkingServer({}, false));
    const user = await t.user();
    await save(user, [`${pages.origin}/ok-loopback`, 'http://10.1.2.3/ok', 'http://192.168.1.1/ok', 'http://169.254.169.254/latest', 'http://localhost:1/ok']);
    await runCheck(t);
    expect(pages.hits.get('/ok-loopback')).toBeUndefined();
    for (const b of (await byUrl(user)).values()) expect([b.url, b.linkStatus, b.httpStatusCode]).toEqual([b.url, 'unchecked', 0]);
  });

  it('refuses a redirect into loopback from an allowed host, and follows it with allowPrivate', async () => {
    const bouncing = http.createServer((_req, res) => res.writeHead(301, { Location: `${pages.origin}/ok-internal` }).end());
    await new Promise<void>((resolve) => bouncing.listen(0, '127.0.0.1', resolve));
    const bounceOrigin = `http://127.0.0.1:${(bouncing.address() as AddressInfo).port}`;
    // Stand-in for "the bouncing server is a public host": only its origin skips the real guard.
    const guard = async (url: URL, allowPrivate: boolean): Promise<GuardResult> =>
      url.origin === bounceOrigin ? { ok: true, url, addresses: [{ address: '127.0.0.1', family: 4 }] } : checkUrl(url, allowPrivate);
    try {
      expect(await checkLink(`${bounceOrigin}/x`, { allowPrivate: false, timeoutMs: 1000, guard })).toEqual({ linkStatus: 'unchecked', httpStatusCode: 0 });
      expect(pages.hits.get('/ok-internal')).toBeUndefined();
      expect(await checkLink(`${bounceOrigin}/x`, { allowPrivate: true, timeoutMs: 1000 })).toEqual({ linkStatus: 'redirected', httpStatusCode: 301 });
      expect(pages.hits.get('/ok-internal')).toHaveLength(1);
    } finally {
      bouncing.closeAllConnections();
      bouncing.close();
    }
  });
});

describe('link check limits', () => {
  it('gives a host its next slot only once the pace has passed', () => {
    let now = 1000;
    const pace = new HostPace(150, () => now);
    expect(pace.take('a.example:80')).toBe(0);
    expect(pace.take('b.example:80')).toBe(0);
    now += 100;
    expect(pace.take('a.example:80')).toBe(50);
    now += 50;
    expect(pace.take('a.example:80')).toBe(0);
    expect(pace.take('a.example:80')).toBe(150);
  });

  it('keeps its pace per host: the n-th request to a host goes no sooner than n paces after the check began', async () => {
    const paced = await startPages();
    try {
      const t = await track(checkingServer({ hostPaceMs: 400, concurrency: 8 }));
      const user = await t.user();
      await save(user, [1, 2, 3, 4].map((n) => `${paced.origin}/ok-${n}`));
      const began = Date.now();
      await runCheck(t);
      const times = [...paced.hits.values()].flat().sort((a, b) => a - b);
      expect(times).toHaveLength(4);
      // Bounds that a loaded machine cannot break: a request arrives after it was sent, and the n-th was sent at least
      // n paces after the first (gaps between arrivals are not one: a late first arrival shortens the next gap). A
      // timer may fire a millisecond early.
      for (const [n, time] of times.entries()) expect(time - began).toBeGreaterThanOrEqual(n * 400 - 2);
    } finally {
      await paced.close();
    }
  });

  it('stops at the daily cap per user and goes on the next day', async () => {
    const t = await track(checkingServer({ dailyCap: 3 }));
    const user = await t.user();
    const other = await t.user();
    await save(user, [1, 2, 3, 4, 5].map((n) => `${pages.origin}/ok-cap-${n}`));
    await save(other, [`${pages.origin}/ok-cap-other`]);
    await runCheck(t);
    const checked = () => [...pages.hits.keys()].filter((p) => /^\/ok-cap-\d$/.test(p)).length;
    expect(checked()).toBe(3);
    // Another user's cap is their own.
    expect(pages.hits.get('/ok-cap-other')).toHaveLength(1);
    await runCheck(t);
    expect(checked()).toBe(3);
    await t.advance(24 * 3_600_000);
    await runCheck(t);
    expect(checked()).toBe(5);
  });
});

describe('link check on two instances', () => {
  it("never checks a user's link twice when two instances share the database", async () => {
    const a = await track(checkingServer({ concurrency: 2 }));
    const database = a.server.deps.config.databaseUrl;
    const b = await track(startTestServer({
      allowPrivateFetch: true,
      linkCheck: { ...LINK_CHECK_DEFAULTS, ...fast, concurrency: 2 },
      ...(database === null ? { dataDir: a.dataDir } : { databaseUrl: database }),
    }));
    const users = [await a.user(), await a.user(), await a.user()];
    for (const [i, user] of users.entries()) await save(user, Array.from({ length: 12 }, (_, n) => `${pages.origin}/ok-twice-${i}-${n}`));
    a.server.deps.linkChecker.wake();
    b.server.deps.linkChecker.wake();
    await Promise.all([a.server.deps.linkChecker.idle(), b.server.deps.linkChecker.idle()]);
    const hits = [...pages.hits.entries()].filter(([p]) => p.startsWith('/ok-twice-'));
    expect(hits).toHaveLength(36);
    for (const [path, times] of hits) expect([path, times.length]).toEqual([path, 1]);
    for (const user of users) for (const bm of (await byUrl(user)).values()) expect(bm.linkStatus).toBe('ok');
    // Saving 36 bookmarks over HTTP takes a while on PostgreSQL on a loaded machine.
  }, 90_000);
});

describe('link check configuration', () => {
  const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseServerConfig(argv, env).linkCheck;
  it('is on by default, off with --no-link-check or LINK_CHECK=off, off under --test-clock unless --link-check', () => {
    expect(parse([]).enabled).toBe(true);
    expect(parse(['--no-link-check']).enabled).toBe(false);
    expect(parse([], { LINK_CHECK: 'off' }).enabled).toBe(false);
    expect(parse(['--link-check'], { LINK_CHECK: 'off' }).enabled).toBe(true);
    expect(parse(['--test-clock']).enabled).toBe(false);
    expect(parse(['--test-clock', '--link-check']).enabled).toBe(true);
    expect(() => parse(['--link-check', '--no-link-check'])).toThrow(/contradict/);
  });
  it('takes its numbers from flags and refuses bad ones by name', () => {
    expect(parse(['--link-check-pace-ms', '50', '--link-check-daily-cap', '10'])).toMatchObject({ hostPaceMs: 50, dailyCap: 10 });
    expect(() => parse(['--link-check-concurrency', '0'])).toThrow(/--link-check-concurrency must be a whole number from 1 to 256, got 0/);
    expect(() => parse(['--link-check-timeout-ms', 'soon'])).toThrow(/--link-check-timeout-ms/);
  });
});
