import { randomBytes } from 'node:crypto';
import { domainOf, normaliseUrl } from '../lib/url.ts';
import { type Db, openDatabase } from '../server/db/database.ts';
import { newId } from '../server/ids.ts';
import { defaultFavicon } from '../server/metadata/extract.ts';
import { type BookmarkRow, toBookmark } from '../server/store/shared/bookmark-rows.ts';
import { ensureTags } from '../server/store/sqlite/tag-rows.ts';
import type { Library } from './library.ts';
import { median } from './stats.ts';

/**
 * Writes the library straight into `<dataDir>/shelf.db` for the data directory's
 * first user (the one the server's first start created), in one transaction,
 * and answers how long that transaction took: the raw cost an import is set beside.
 * The server must not be running on that directory.
 */
export function seedLibrary(dataDir: string, library: Library): { userId: string; insertMs: number } {
  const db = openDatabase(dataDir);
  try {
    const userId = db.prepare<[], { id: string }>('SELECT id FROM users ORDER BY created_at LIMIT 1').get()?.id;
    if (userId === undefined) throw new Error(`no user in ${dataDir}: start the server on it once first`);
    const started = performance.now();
    db.transaction(() => insertLibrary(db, userId, library))();
    return { userId, insertMs: performance.now() - started };
  } finally {
    db.close();
  }
}

/**
 * The raw cost of a read: median time of a few runs of one SELECT of
 * BOOKMARK_COLUMNS, its rows turned into API objects as every endpoint does.
 */
export function timeBookmarkRead(dataDir: string, sql: string, params: Record<string, unknown>): { ms: number; rows: number } {
  const db = openDatabase(dataDir);
  try {
    const read = db.prepare<[Record<string, unknown>], BookmarkRow>(sql);
    const rows = read.all(params).map(toBookmark).length; // warms the page cache and the statement
    const runs = Array.from({ length: 5 }, () => {
      const started = performance.now();
      read.all(params).map(toBookmark);
      return performance.now() - started;
    });
    return { ms: median(runs), rows };
  } finally {
    db.close();
  }
}

function insertLibrary(db: Db, userId: string, library: Library): void {
  const now = Math.max(...library.bookmarks.map((b) => b.createdAt));
  const addCollection = db.prepare(
    `INSERT INTO collections (id, user_id, name, parent_id, sort_order, share_slug, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const collectionIds: string[] = [];
  library.collections.forEach((c, order) => {
    const id = newId('col');
    const parentId = c.parent === null ? null : collectionIds[c.parent]!;
    addCollection.run(id, userId, c.name, parentId, order, randomBytes(8).toString('hex'), now, now);
    collectionIds.push(id);
  });

  const tagIds = new Map(ensureTags(db, userId, library.tags, now).map((id, i) => [library.tags[i]!, id]));

  const addBookmark = db.prepare(
    `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, type, is_favorite, collection_id, domain, favicon,
       click_count, metadata_status, link_status, last_checked_at, http_status_code, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'complete', 'ok', ?, 200, ?, ?)`,
  );
  const link = db.prepare('INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, ?)');
  for (const b of library.bookmarks) {
    const id = newId('bm');
    const collectionId = b.collection === null ? null : collectionIds[b.collection]!;
    addBookmark.run(
      id, userId, b.url, normaliseUrl(b.url), b.title, b.description, b.type, b.isFavorite ? 1 : 0, collectionId,
      domainOf(b.url), defaultFavicon(b.url), b.clickCount, b.createdAt, b.createdAt, b.createdAt,
    );
    for (const tag of b.tags) link.run(id, tagIds.get(tag)!);
  }
}

