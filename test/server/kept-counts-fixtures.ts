import type Database from 'better-sqlite3';
import type { z } from 'zod';
import type { BookmarkStats, DomainCount } from '../../lib/api/bookmarks.ts';

export const TYPES = ['link', 'article', 'video', 'image', 'document'] as const;
type Stats = z.infer<typeof BookmarkStats>;

/** What the kept counts must equal: the same figures counted afresh from the rows. */
export function countedAfresh(db: Database.Database, userId: string) {
  const count = (where: string, ...params: unknown[]): number =>
    (db.prepare(`SELECT COUNT(*) AS n FROM bookmarks b WHERE b.user_id = ? AND b.deleted_at IS NULL AND ${where}`).get(userId, ...params) as { n: number }).n;
  const stats: Stats = {
    total: count('1'),
    favorites: count('b.is_favorite = 1'),
    unsorted: count('b.collection_id IS NULL'),
    noTags: count('NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = b.id)'),
    typeCounts: Object.fromEntries(TYPES.map((type) => [type, count('b.type = ?', type)])) as Stats['typeCounts'],
  };
  const domains = db
    .prepare(`SELECT domain, COUNT(*) AS count FROM bookmarks WHERE user_id = ? AND deleted_at IS NULL GROUP BY domain ORDER BY count DESC, domain ASC`)
    .all(userId) as z.infer<typeof DomainCount>[];
  const perCollection = new Map(
    (db.prepare('SELECT c.id, (SELECT COUNT(*) FROM bookmarks b WHERE b.collection_id = c.id AND b.deleted_at IS NULL) AS n FROM collections c WHERE c.user_id = ? AND c.deleted_at IS NULL')
      .all(userId) as { id: string; n: number }[]).map((r) => [r.id, r.n]),
  );
  // The groups as /bookmarks/duplicates computed them before the counts were kept.
  const duplicates = db
    .prepare(
      `WITH g AS (SELECT url_key, MAX(created_at) AS newest, MAX(seq) AS top FROM bookmarks WHERE user_id = @userId AND deleted_at IS NULL
         GROUP BY url_key HAVING COUNT(*) >= 2)
       SELECT b.url_key, b.id FROM g JOIN bookmarks b ON b.user_id = @userId AND b.url_key = g.url_key AND b.deleted_at IS NULL
       ORDER BY g.newest DESC, g.top DESC, b.created_at ASC, b.seq ASC`,
    )
    .all({ userId }) as { url_key: string; id: string }[];
  return { stats, domains, perCollection, duplicates: duplicates.map((r) => [r.url_key, r.id]) };
}

