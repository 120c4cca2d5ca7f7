import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateSmartFolderBody, type Evaluation, PatchSmartFolderBody, Rules } from '../../../lib/api/smart-folders.ts';
import { openDatabase } from '../../../server/db/database.ts';
import { openPostgres } from '../../../server/db/postgres/connect.ts';
import { ApiError } from '../../../server/http/api-error.ts';
import { planEvaluation } from '../../../server/smart-folders/plan.ts';
import type { SqlValue } from '../../../server/smart-folders/steps.ts';
import { numbered } from '../../../server/store/postgres/smart-folder-sql.ts';
import { PgSmartFolders } from '../../../server/store/postgres/smart-folders.ts';
import type { SmartFoldersStore } from '../../../server/store/smart-folders.ts';
import { SqliteSmartFolders } from '../../../server/store/sqlite/smart-folders.ts';
import { type TestPostgres, startPostgres } from '../../support/postgres.ts';

/**
 * PgSmartFolders against a real cluster, and beside SqliteSmartFolders: the same rows written into
 * both databases (same ids and seqs), the same folders (same cursor keys), and every evaluation
 * page compared whole, cursors included. The small library is also checked against a model of
 * the rules, so that both backends agreeing on a wrong answer fails too.
 */

let cluster: TestPostgres;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

const BASE = Date.UTC(2024, 0, 1);
const ME = 'usr_me';
const OTHER = 'usr_other';
const SHARED_KEY = 'k'.repeat(64);

type BackendName = 'sqlite' | 'postgres';
const BACKENDS: BackendName[] = ['sqlite', 'postgres'];

interface Backend {
  store: SmartFoldersStore;
  /** Runs one statement written with `?` placeholders. */
  run(sql: string, params?: SqlValue[]): Promise<void>;
  close(): Promise<void>;
}

async function openBackend(name: BackendName): Promise<Backend> {
  if (name === 'postgres') {
    const db = await openPostgres(await cluster.createMigratedDatabase());
    return {
      store: new PgSmartFolders(db),
      run: async (sql, params = []) => void (await db.run(numbered(sql), params)),
      close: () => db.close(),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'shelf-smart-folders-'));
  const db = openDatabase(dir);
  return {
    store: new SqliteSmartFolders(db),
    run: async (sql, params = []) => void db.prepare(sql).run(...params),
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface RawBookmark {
  user?: string;
  createdAt: number;
  domain?: string;
  type?: string;
  favorite?: boolean;
  clicks?: number;
  trashed?: boolean;
  tags?: string[];
}

interface Seeded {
  /** Bookmark ids in the order given. */
  ids: string[];
  /** Each tag key's member bookmarks in membership order. */
  members: Map<string, string[]>;
}

const CHUNK = 400;

async function insert(b: Backend, table: string, columns: string[], values: SqlValue[][]): Promise<void> {
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let i = 0; i < values.length; i += CHUNK) {
    const chunk = values.slice(i, i + CHUNK);
    await b.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}`, chunk.flat());
  }
}

/**
 * Writes users, tags, bookmarks and memberships with explicit ids and seqs, identical on every
 * backend. Memberships are linked in `linkOrder` (indexes into rows; default: as given).
 */
async function seed(b: Backend, rows: RawBookmark[], linkOrder: number[] = rows.map((_, i) => i)): Promise<Seeded> {
  await insert(b, 'users', ['id', 'name', 'email', 'plan', 'created_at'], [
    [ME, 'Me', 'me@example.com', 'pro', 0],
    [OTHER, 'Other', 'other@example.com', 'pro', 0],
  ]);
  const tags = new Map<string, { id: string; name: string; user: string; key: string }>();
  const tagOf = (user: string, name: string) => {
    const key = name.toLowerCase();
    const found = tags.get(`${user}\n${key}`);
    if (found) return found;
    const tag = { id: `tag_${tags.size + 1}`, name, user, key };
    tags.set(`${user}\n${key}`, tag);
    return tag;
  };
  const ids = rows.map((_, i) => `bm_${String(i + 1).padStart(5, '0')}`);
  const links: SqlValue[][] = [];
  const members = new Map<string, string[]>();
  for (const i of linkOrder) {
    const r = rows[i]!;
    for (const name of r.tags ?? []) {
      const tag = tagOf(r.user ?? ME, name);
      links.push([links.length + 1, ids[i]!, tag.id]);
      if ((r.user ?? ME) === ME) members.set(tag.key, [...(members.get(tag.key) ?? []), ids[i]!]);
    }
  }
  await insert(b, 'tags', ['seq', 'id', 'user_id', 'name', 'name_key', 'created_at'],
    [...tags.values()].map((t, i) => [i + 1, t.id, t.user, t.name, t.key, 0]));
  await insert(
    b,
    'bookmarks',
    ['seq', 'id', 'user_id', 'url', 'url_key', 'title', 'type', 'is_favorite', 'domain', 'click_count',
      'metadata_status', 'link_status', 'last_checked_at', 'created_at', 'updated_at', 'deleted_at'],
    rows.map((r, i) => {
      const domain = r.domain ?? 'example.com';
      return [i + 1, ids[i]!, r.user ?? ME, `https://${domain}/${i}`, `${domain}/${i}`, `Title ${i}`, r.type ?? 'link',
        r.favorite ? 1 : 0, domain, r.clicks ?? 0, 'complete', 'unchecked', r.createdAt, r.createdAt, r.createdAt,
        r.trashed ? BASE : null];
    }),
  );
  await insert(b, 'bookmark_tags', ['seq', 'bookmark_id', 'tag_id'], links);
  return { ids, members };
}

type RulesInput = { match: 'all' | 'any'; conditions: { field: string; operator: string; value: string }[] };
const rule = (field: string, operator: string, value: string) => ({ field, operator, value });
const all = (...conditions: RulesInput['conditions']): RulesInput => ({ match: 'all', conditions });
const any = (...conditions: RulesInput['conditions']): RulesInput => ({ match: 'any', conditions });

/** A folder whose cursors are signed with SHARED_KEY, so that equal positions give equal cursors on every backend. */
async function createFolder(b: Backend, rules: RulesInput, name = 'Folder'): Promise<string> {
  const folder = await b.store.create(ME, CreateSmartFolderBody.parse({ name, rules }), BASE);
  await b.run('UPDATE smart_folders SET cursor_key = ? WHERE id = ?', [SHARED_KEY, folder.id]);
  return folder.id;
}

async function evaluateAll(b: Backend, id: string): Promise<Evaluation[]> {
  const pages: Evaluation[] = [];
  let cursor: string | undefined;
  do {
    const page = await b.store.evaluate(ME, id, cursor);
    if (page === null) throw new Error('the folder is missing');
    pages.push(page);
    cursor = page.continueCursor ?? undefined;
    if (pages.length > 50) throw new Error('evaluation does not end');
  } while (cursor !== undefined);
  return pages;
}

const idsOf = (pages: Evaluation[]): string[] => pages.flatMap((p) => p.bookmarks.map((bm) => bm.id));

/** The error an evaluation answers, as the API would show it. */
async function refusal(b: Backend, id: string, cursor: string): Promise<{ code: string; status: number; message: string }> {
  try {
    await b.store.evaluate(ME, id, cursor);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { code: err.code, status: err.status, message: err.message };
  }
  throw new Error('the cursor was accepted');
}

/** Both backends, each seeded with the same rows. */
function bothSeeded(rows: () => RawBookmark[], linkOrder?: (n: number) => number[]) {
  const ctx = {} as { sqlite: Backend; postgres: Backend; seeded: Seeded };
  beforeAll(async () => {
    const given = rows();
    [ctx.sqlite, ctx.postgres] = await Promise.all([openBackend('sqlite'), openBackend('postgres')]);
    const order = linkOrder?.(given.length);
    [ctx.seeded] = await Promise.all([seed(ctx.sqlite, given, order), seed(ctx.postgres, given, order)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([ctx.sqlite?.close(), ctx.postgres?.close()]);
  });
  /** Every page of a new folder with these rules on both backends; they must be equal, whole. */
  const pagesOnBoth = async (rules: RulesInput): Promise<Evaluation[]> => {
    const [onSqlite, onPostgres] = await Promise.all(
      [ctx.sqlite, ctx.postgres].map(async (b) => evaluateAll(b, await createFolder(b, rules))),
    );
    expect(onPostgres).toEqual(onSqlite);
    return onPostgres!;
  };
  return { ctx, pagesOnBoth };
}

const TYPES = ['link', 'article', 'image', 'video', 'document'];
const DOMAINS = ['a.com', 'b.org', 'sub.a.com', 'c.net'];

/** 90 bookmarks of mine in threes of one time (seq breaks the tie), some trashed, and 10 of another user's. */
function smallLibrary(): RawBookmark[] {
  const mine = Array.from({ length: 90 }, (_, i): RawBookmark => ({
    createdAt: BASE + Math.floor(i / 3) * 1000,
    domain: DOMAINS[i % 4],
    type: TYPES[i % 5],
    favorite: i % 7 === 0,
    clicks: (i * 37) % 50,
    trashed: i % 11 === 5,
    tags: [
      ...(i % 3 === 0 ? ['Work'] : []),
      ...(i % 4 === 1 ? ['work/Project'] : []),
      ...(i % 5 === 2 ? ['Read later'] : []),
      ...(i % 6 === 0 ? ['Ünïcode'] : []),
    ],
  }));
  const theirs = Array.from({ length: 10 }, (_, i): RawBookmark => ({
    user: OTHER,
    createdAt: BASE + i * 1000 + 500,
    domain: 'a.com',
    favorite: true,
    clicks: 40,
    tags: ['Work', 'Read later'],
  }));
  return [...mine, ...theirs];
}

/** What the rules select of my active bookmarks: newest first, or in membership order for an exact tag. */
function modelOf(rows: RawBookmark[], seeded: Seeded, input: RulesInput): string[] {
  const rules = Rules.parse(input);
  const holds = (r: RawBookmark, c: Rules['conditions'][number]): boolean => {
    const keys = (r.tags ?? []).map((t) => t.toLowerCase());
    switch (c.field) {
      case 'tag':
        return keys.some((k) => (c.operator === 'equals' ? k === c.value.toLowerCase() : k.includes(c.value.toLowerCase())));
      case 'domain':
        return c.operator === 'equals' ? r.domain === c.value : r.domain!.includes(c.value);
      case 'type':
        return r.type === c.value;
      case 'isFavorite':
        return (r.favorite ?? false) === (c.value === 'true');
      case 'createdAfter':
        return r.createdAt > Number(c.value);
      case 'createdBefore':
        return r.createdAt < Number(c.value);
      case 'clickCount':
        return c.operator === 'gte' ? (r.clicks ?? 0) >= Number(c.value) : (r.clicks ?? 0) <= Number(c.value);
    }
  };
  const matching = new Set(
    rows
      .map((r, i) => ({ r, id: seeded.ids[i]! }))
      .filter(({ r }) => (r.user ?? ME) === ME && !r.trashed)
      .filter(({ r }) => (rules.match === 'all' ? rules.conditions.every((c) => holds(r, c)) : rules.conditions.some((c) => holds(r, c))))
      .map(({ id }) => id),
  );
  const plan = planEvaluation(rules);
  if (plan.strategy === 'exact-tag') return (seeded.members.get(plan.tag.toLowerCase()) ?? []).filter((id) => matching.has(id));
  const order = rows.map((r, i) => ({ createdAt: r.createdAt, seq: i + 1, id: seeded.ids[i]! }));
  order.sort((x, y) => y.createdAt - x.createdAt || y.seq - x.seq);
  return order.map((o) => o.id).filter((id) => matching.has(id));
}

describe('evaluation of every rule kind, on both backends', () => {
  const rows = smallLibrary();
  // Memberships linked in a shuffled order, so that membership order is not newest first.
  const { ctx, pagesOnBoth } = bothSeeded(
    () => rows,
    (n) => Array.from({ length: n }, (_, i) => (i * 37) % n),
  );
  const at = (third: number) => String(BASE + third * 1000);

  it.each<[string, RulesInput]>([
    ['an exact tag, in membership order', all(rule('tag', 'equals', 'work'))],
    ['an exact tag in another case, alone under any', any(rule('tag', 'equals', 'WORK'))],
    ['an exact non-ASCII tag', all(rule('tag', 'equals', 'ÜNÏCODE'))],
    ['an exact tag and a column', all(rule('tag', 'equals', 'work'), rule('type', 'equals', 'link'))],
    ['two exact tags', all(rule('tag', 'equals', 'work'), rule('tag', 'equals', 'read later'))],
    ['a hierarchical exact tag', all(rule('tag', 'equals', 'Work/project'))],
    ['a tag that does not exist', all(rule('tag', 'equals', 'nothing'))],
    ['tag contains', all(rule('tag', 'contains', 'PROJ'))],
    ['tag contains, non-ASCII', all(rule('tag', 'contains', 'ünï'))],
    ['two tag contains, both required', all(rule('tag', 'contains', 'o'), rule('tag', 'contains', 'r'))],
    ['tags or a column', any(rule('tag', 'equals', 'read later'), rule('isFavorite', 'equals', 'true'))],
    ['tags or a domain', any(rule('tag', 'contains', 'work'), rule('tag', 'equals', 'ünïcode'), rule('domain', 'contains', 'sub'))],
    ['a domain index with a tag and clicks', all(rule('domain', 'equals', 'a.com'), rule('tag', 'contains', 'work'), rule('clickCount', 'lte', '30'))],
    ['domain equals', all(rule('domain', 'equals', 'https://www.A.com/path'))],
    ['domain contains', all(rule('domain', 'contains', 'a.c'))],
    ['type and not favorite', all(rule('type', 'equals', 'video'), rule('isFavorite', 'equals', 'false'))],
    ['favorites', all(rule('isFavorite', 'equals', 'true'))],
    ['a date range with strict bounds on tied times', all(rule('createdAfter', 'equals', at(5)), rule('createdBefore', 'equals', at(20)))],
    ['before anything', all(rule('createdBefore', 'equals', String(BASE)))],
    ['clicks at least', all(rule('clickCount', 'gte', '25'))],
    ['few or many clicks', any(rule('clickCount', 'lte', '3'), rule('clickCount', 'gte', '48'))],
    ['a domain or a type', any(rule('domain', 'equals', 'b.org'), rule('type', 'equals', 'article'))],
    ['no conditions', all()],
  ])('%s', async (_, rules) => {
    const pages = await pagesOnBoth(rules);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ continueCursor: null, truncated: false });
    expect(idsOf(pages)).toEqual(modelOf(rows, ctx.seeded, rules));
  });

  it('answers whole bookmark objects, with their tag names ordered by key', async () => {
    const [page] = await pagesOnBoth(all(rule('tag', 'equals', 'ünïcode')));
    const first = page!.bookmarks.find((bm) => bm.id === 'bm_00001')!;
    expect(first).toMatchObject({
      url: 'https://a.com/0',
      title: 'Title 0',
      type: 'link',
      isFavorite: true,
      tags: ['Work', 'Ünïcode'],
      domain: 'a.com',
      clickCount: 0,
      createdAt: new Date(BASE).toISOString(),
      deletedAt: null,
    });
  });
});

describe('evaluation limits over 5,100 bookmarks, on both backends', () => {
  const rows = Array.from({ length: 5_100 }, (_, i): RawBookmark => ({
    createdAt: BASE + i * 1000,
    domain: i < 100 ? 'rare.org' : 'common.com',
    clicks: i % 1000 === 0 ? 5_000 : i % 10,
    favorite: i % 3 === 0,
    trashed: i % 97 === 0,
    tags: [...(i % 4 === 0 ? ['Big'] : []), ...(i % 8 === 0 ? ['Eighth'] : []), ...(i % 640 === 1 ? ['Sparse'] : [])],
  }));
  const { pagesOnBoth } = bothSeeded(() => rows);

  // [what, rules, the size of each page, whether the last says truncated]
  it.each<[string, RulesInput, number[], boolean]>([
    ['a scan returns at most 500, in pages of 200', all(rule('clickCount', 'gte', '0')), [200, 200, 100], true],
    ['a scan stops after examining 5,000 bookmarks', all(rule('clickCount', 'gte', '5000')), [5], true],
    ['a scan counts the 5,000 across pages', all(rule('clickCount', 'gte', '9'), rule('isFavorite', 'equals', 'false')), [200, 138], true],
    ['the domain index finds a domain beyond the newest 5,000 whole', all(rule('domain', 'equals', 'rare.org')), [98], false],
    ['a date range narrows before counting', all(rule('createdAfter', 'equals', String(BASE + 4_000_000)), rule('createdBefore', 'equals', String(BASE + 4_100_000))), [98], false],
    ['favorites are walked on their index', all(rule('isFavorite', 'equals', 'true'), rule('clickCount', 'lte', '4')), [200, 200, 100], true],
    ['an exact tag is walked 200 memberships a page, up to 500 bookmarks', all(rule('tag', 'equals', 'big')), [197, 198, 105], true],
    // Memberships 1,000 apart (one of them trashed) in 200 a page; then 5 matches among 1,275 memberships.
    ['a sparse exact tag is one page', all(rule('tag', 'equals', 'sparse'), rule('clickCount', 'gte', '1')), [7], false],
    ['an exact tag with few matches has empty pages between', all(rule('tag', 'equals', 'big'), rule('tag', 'equals', 'eighth'), rule('clickCount', 'gte', '9')), [0, 1, 1, 1, 0, 1, 1], false],
    ['tags or a column, scanned', any(rule('tag', 'contains', 'eig'), rule('domain', 'equals', 'rare.org')), [200, 200, 100], true],
  ])('%s', async (_, rules, sizes, truncated) => {
    const pages = await pagesOnBoth(rules);
    expect(pages.map((p) => p.bookmarks.length)).toEqual(sizes);
    expect(pages.at(-1)).toMatchObject({ continueCursor: null, truncated });
  });
});

describe.each(BACKENDS)('smart folder definitions on %s', (name) => {
  let b: Backend;
  beforeAll(async () => {
    b = await openBackend(name);
    await seed(b, []);
  });
  afterAll(() => b?.close());

  const create = (body: object, user = ME) => b.store.create(user, CreateSmartFolderBody.parse(body), BASE);
  const byTag = all(rule('tag', 'equals', 'work'));

  it('creates a folder with empty icon and color by default and the rules normalised', async () => {
    const folder = await create({ name: 'Mine', rules: all(rule('domain', 'equals', 'HTTPS://Example.COM/x')) });
    expect(folder).toEqual({
      id: expect.stringMatching(/^sf_/),
      name: 'Mine',
      icon: '',
      color: '',
      rules: { match: 'all', conditions: [{ field: 'domain', operator: 'equals', value: 'example.com' }] },
      createdAt: new Date(BASE).toISOString(),
    });
    expect(await b.store.get(ME, folder.id)).toEqual(folder);
  });

  it("lists the user's folders by name, ASCII case ignored, then by creation", async () => {
    const user = `usr_list_${name}`;
    await b.run("INSERT INTO users (id, name, email, plan, created_at) VALUES (?, 'L', 'l@example.com', 'pro', 0)", [user]);
    for (const n of ['beta', 'Alpha', 'alpha', 'Émile', 'zed', 'Beta']) await create({ name: n, rules: byTag }, user);
    expect((await b.store.list(user)).map((f) => f.name)).toEqual(['Alpha', 'alpha', 'beta', 'Beta', 'zed', 'Émile']);
    expect(await b.store.list('usr_nobody')).toEqual([]);
  });

  it('patches any of name, icon and color, leaving the rest', async () => {
    const folder = await create({ name: 'Old', icon: 'star', color: '#fff', rules: byTag });
    const patched = await b.store.update(ME, folder.id, PatchSmartFolderBody.parse({ color: '#000' }));
    expect(patched).toEqual({ ...folder, color: '#000' });
    const renamed = await b.store.update(ME, folder.id, PatchSmartFolderBody.parse({ name: 'New', rules: any(rule('type', 'equals', 'video')) }));
    expect(renamed).toEqual({ ...folder, color: '#000', name: 'New', rules: any(rule('type', 'equals', 'video')) });
    expect(await b.store.get(ME, folder.id)).toEqual(renamed);
  });

  it('removes the definition, once', async () => {
    const folder = await create({ name: 'Gone', rules: byTag });
    expect(await b.store.remove(ME, folder.id)).toBe(true);
    expect(await b.store.remove(ME, folder.id)).toBe(false);
    expect(await b.store.get(ME, folder.id)).toBeNull();
    expect(await b.store.update(ME, folder.id, { name: 'x' })).toBeNull();
    expect(await b.store.evaluate(ME, folder.id, undefined)).toBeNull();
  });

  it("answers another user's folder like a missing one, and leaves it alone", async () => {
    const folder = await create({ name: 'Theirs', rules: byTag }, OTHER);
    expect(await b.store.get(ME, folder.id)).toBeNull();
    expect(await b.store.update(ME, folder.id, { name: 'Mine now' })).toBeNull();
    expect(await b.store.remove(ME, folder.id)).toBe(false);
    expect(await b.store.evaluate(ME, folder.id, undefined)).toBeNull();
    expect(await b.store.list(ME)).not.toContainEqual(expect.objectContaining({ id: folder.id }));
    expect(await b.store.get(OTHER, folder.id)).toEqual(folder);
  });

  it('answers an empty page for a folder over an empty library', async () => {
    const folder = await create({ name: 'Empty', rules: all(rule('clickCount', 'gte', '0')) });
    expect(await b.store.evaluate(ME, folder.id, undefined)).toEqual({ bookmarks: [], continueCursor: null, truncated: false });
  });
});

describe('cursors, on both backends', () => {
  // 300 active memberships of "paged" (two pages of the walk) and 300 bookmarks to scan.
  const rows = Array.from({ length: 300 }, (_, i): RawBookmark => ({ createdAt: BASE + i * 1000, tags: ['Paged'] }));
  const { ctx } = bothSeeded(() => rows);
  const each = async <T>(fn: (b: Backend) => Promise<T>): Promise<T[]> => Promise.all([fn(ctx.sqlite), fn(ctx.postgres)]);

  /** The same error on both backends, with the given code. */
  const refusedAlike = async (fn: (b: Backend) => Promise<{ id: string; cursor: string }>, code: string) => {
    const [onSqlite, onPostgres] = await each(async (b) => {
      const { id, cursor } = await fn(b);
      return refusal(b, id, cursor);
    });
    expect(onPostgres).toEqual(onSqlite);
    expect(onPostgres).toMatchObject({ code, status: code === 'VALIDATION_ERROR' ? 400 : 409 });
    return onPostgres!;
  };

  const renameTag = (b: Backend, key: string, to: string) =>
    b.run('UPDATE tags SET name = ?, name_key = ? WHERE user_id = ? AND name_key = ?', [to, to.toLowerCase(), ME, key]);
  const firstCursor = async (b: Backend, id: string): Promise<string> => (await b.store.evaluate(ME, id, undefined))!.continueCursor!;

  it('refuses a malformed, altered or foreign cursor as VALIDATION_ERROR', async () => {
    for (const bad of ['', 'garbage', 'a.b.c']) {
      const error = await refusedAlike(async (b) => ({ id: await createFolder(b, all(rule('tag', 'equals', 'paged'))), cursor: bad }), 'VALIDATION_ERROR');
      expect(error.message).toMatch(/^Invalid query: cursor: /);
    }
    await refusedAlike(async (b) => {
      const own = await b.store.create(ME, CreateSmartFolderBody.parse({ name: 'Own key', rules: all(rule('tag', 'equals', 'paged')) }), BASE);
      return { id: own.id, cursor: await firstCursor(b, await createFolder(b, all(rule('tag', 'equals', 'paged')))) };
    }, 'VALIDATION_ERROR');
  });

  /** A first-page cursor of a folder with these rules, refused alike as SMART_FOLDER_CURSOR_INVALID after `change`. */
  const staleAfter = (rules: RulesInput, change: (b: Backend, id: string, cursor: string) => Promise<unknown>) =>
    refusedAlike(async (b) => {
      const id = await createFolder(b, rules);
      const cursor = await firstCursor(b, id);
      await change(b, id, cursor);
      return { id, cursor };
    }, 'SMART_FOLDER_CURSOR_INVALID');
  const setRules = (b: Backend, id: string, rules: RulesInput) => b.store.update(ME, id, PatchSmartFolderBody.parse({ rules }));
  const paged = all(rule('tag', 'equals', 'paged'));

  it('keeps an exact-tag cursor over a change of name or the same rules, and refuses it once the rules change', async () => {
    await staleAfter(paged, async (b, id, cursor) => {
      await b.store.update(ME, id, PatchSmartFolderBody.parse({ name: 'Renamed', rules: paged }));
      expect((await b.store.evaluate(ME, id, cursor))!.bookmarks).toHaveLength(100);
      await setRules(b, id, all(rule('tag', 'equals', 'paged'), rule('type', 'equals', 'link')));
    });
  });

  it('refuses an exact-tag cursor once the tag it walks is renamed, or once the rules name no exact tag', async () => {
    const renamed = await staleAfter(paged, (b) => renameTag(b, 'paged', 'Walked'));
    expect(renamed.message).toMatch(/start again without a cursor/);
    await each((b) => renameTag(b, 'walked', 'Paged'));
    await staleAfter(paged, (b, id) => setRules(b, id, all(rule('tag', 'contains', 'paged'))));
  });

  it('keeps a scan cursor over a rule change, continuing from its position, and refuses it once an exact tag is walked', async () => {
    const [onSqlite, onPostgres] = await each(async (b) => {
      const id = await createFolder(b, all(rule('clickCount', 'gte', '0')));
      const first = (await b.store.evaluate(ME, id, undefined))!;
      await setRules(b, id, all(rule('type', 'equals', 'link')));
      const second = (await b.store.evaluate(ME, id, first.continueCursor!))!;
      return { first, second };
    });
    expect(onPostgres).toEqual(onSqlite);
    expect(onPostgres!.second.bookmarks).toHaveLength(100);
    expect(onPostgres!.second.bookmarks[0]!.createdAt).toBe(new Date(BASE + 99_000).toISOString());

    await staleAfter(all(rule('clickCount', 'gte', '0')), (b, id) => setRules(b, id, paged));
  });
});
