import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { openRawDb } from '../support/raw-db.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { importFile } from './jobs-fixtures.ts';

let t: TestServer;
let u: TestUser;
beforeEach(async () => {
  t = await startTestServer();
  u = await t.user();
});
afterEach(() => t.close());

const BEACON = 'url(//beacon.example/c.gif)';
const BAD_COLORS = [BEACON, 'red;background:url(x)', 'var(--x)', 'linear-gradient(red, blue)', '#12', '#1234', 'rgb(1,2,3)', 'reddish'];
const COLOR_MESSAGE = 'color: must be #rgb, #rrggbb or a colour name';

const collections = async () => dataOf(await u.api('GET', '/collections'), z.array(Collection));
const tags = async () => dataOf(await u.api('GET', '/tags'), z.array(Tag));

describe('colours are #rgb, #rrggbb or a colour name', () => {
  it('takes such colours on collections, tags and smart folders', async () => {
    for (const color of ['#abc', '#A1B2C3', 'Teal', 'red', '']) {
      expect(dataOf(await u.api('POST', '/collections', { body: { name: `c ${color}`, color } }), Collection, 201).color).toBe(color);
    }
    expect(dataOf(await u.api('POST', '/tags', { body: { name: 'hex', color: '#0f0' } }), Tag, 201).color).toBe('#0f0');
    const folder = await u.api('POST', '/smart-folders', { body: { name: 'f', color: '#123456', rules: { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'x' }] } } });
    expect(folder.status).toBe(201);
  });

  it('refuses anything else with a clear message, and nothing is created or changed', async () => {
    const kept = dataOf(await u.api('POST', '/collections', { body: { name: 'Kept', color: 'blue' } }), Collection, 201);
    const rules = { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'x' }] };
    for (const color of BAD_COLORS) {
      expect(expectError(await u.api('POST', '/collections', { body: { name: 'New', color } }), 400, 'VALIDATION_ERROR')).toContain(COLOR_MESSAGE);
      expect(expectError(await u.api('PATCH', `/collections/${kept.id}`, { body: { color } }), 400, 'VALIDATION_ERROR')).toContain(COLOR_MESSAGE);
      expect(expectError(await u.api('POST', '/tags', { body: { name: 'new', color } }), 400, 'VALIDATION_ERROR')).toContain(COLOR_MESSAGE);
      expect(expectError(await u.api('POST', '/smart-folders', { body: { name: 'f', color, rules } }), 400, 'VALIDATION_ERROR')).toContain(COLOR_MESSAGE);
    }
    expect(await collections()).toEqual([kept]);
    expect(await tags()).toEqual([]);
    expect(dataOf(await u.api('GET', '/smart-folders'), z.array(z.unknown()))).toEqual([]);
  });

  it('drops an imported colour that is not one, and still imports the folder', async () => {
    const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
  <DT><H3 DATA-COLOR="${BEACON}">Tracked</H3>
  <DL><p><DT><A HREF="https://a.example/">A</A></DL><p>
  <DT><H3 DATA-COLOR="#123">Plain</H3>
  <DL><p></DL><p>
</DL>`;
    const job = await importFile(t, u, file);
    expect(job.status).toBe('completed');
    const byName = new Map((await collections()).map((c) => [c.name, c]));
    expect(byName.get('Tracked')).toMatchObject({ color: '', bookmarkCount: 1 });
    expect(byName.get('Plain')).toMatchObject({ color: '#123' });
  });
});

describe("a bookmark's favicon is an http(s) URL", () => {
  it('takes an http(s) URL or nothing, refuses any other with a clear message and changes nothing', async () => {
    const b = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://a.example/' } }), Bookmark, 201);
    const patched = dataOf(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { favicon: 'https://a.example/icon.png' } }), Bookmark);
    expect(patched.favicon).toBe('https://a.example/icon.png');
    for (const favicon of ['javascript:alert(1)', 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', '//beacon.example/f.gif', 'ftp://a.example/f.ico', 'f.ico']) {
      const message = expectError(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { favicon } }), 400, 'VALIDATION_ERROR');
      expect(message).toContain('favicon: must be an absolute http or https URL, or empty');
    }
    expect(dataOf(await u.api('GET', `/bookmarks/${b.id}`), Bookmark)).toEqual(patched);
    expect(dataOf(await u.api('PATCH', `/bookmarks/${b.id}`, { body: { favicon: '' } }), Bookmark).favicon).toBe('');
  });
});

describe('values stored before these rules', () => {
  it('are cleared by the migration, good ones kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shelf-strict-'));
    try {
      const first = await startTestServer({ dataDir });
      const { databaseUrl } = first.server.deps.config;
      const owner = await first.user();
      const bad = dataOf(await owner.api('POST', '/collections', { body: { name: 'Bad' } }), Collection, 201);
      const good = dataOf(await owner.api('POST', '/collections', { body: { name: 'Good', color: '#abcdef' } }), Collection, 201);
      const tag = dataOf(await owner.api('POST', '/tags', { body: { name: 'tagged' } }), Tag, 201);
      const mark = dataOf(await owner.api('POST', '/bookmarks', { body: { url: 'https://b.example/' } }), Bookmark, 201);
      const fine = dataOf(await owner.api('POST', '/bookmarks', { body: { url: 'https://c.example/' } }), Bookmark, 201);
      await first.close();

      // As an older version let them be written; the migration is run again as on an upgrade.
      const db = openRawDb({ dataDir, databaseUrl });
      await db.run('UPDATE collections SET color = ? WHERE id = ?', BEACON, bad.id);
      await db.run('UPDATE tags SET color = ? WHERE id = ?', 'url(x)', tag.id);
      await db.run('UPDATE bookmarks SET favicon = ? WHERE id = ?', 'javascript:alert(1)', mark.id);
      await db.run('UPDATE bookmarks SET favicon = ? WHERE id = ?', 'HTTPS://c.example/icon.png', fine.id);
      await db.run("DELETE FROM migrations WHERE name LIKE '%-strict-values.sql'");
      await db.close();

      const again = await startTestServer({ dataDir, databaseUrl });
      try {
        const api = again.server.deps.store;
        expect((await api.collections.get(owner.userId, bad.id))?.color).toBe('');
        expect((await api.collections.get(owner.userId, good.id))?.color).toBe('#abcdef');
        expect((await api.tags.list(owner.userId)).find((x) => x.id === tag.id)?.color).toBeNull();
        expect((await api.bookmarks.get(owner.userId, mark.id))?.favicon).toBe('');
        expect((await api.bookmarks.get(owner.userId, fine.id))?.favicon).toBe('HTTPS://c.example/icon.png');
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
