import type { z } from 'zod';
import type { BookmarkStats, DomainCount } from '../../lib/api/bookmarks.ts';
import type { RawDb } from '../support/raw-db.ts';
import { count as countOf } from './collections-tags-fixtures.ts';

export const TYPES = ['link', 'article', 'video', 'image', 'document'] as const;
type Stats = z.infer<typeof BookmarkStats>;

/** What the kept counts must equal: the same figures counted afresh from the rows. */
export async function countedAfresh(db: RawDb, userId: string) {
  const count = (where: string, ...params: unknown[]): Promise<number> =>
    countOf(db, `SELECT COUNT(*) AS n FROM bookmarks b WHERE b.user_id = ? AND b.deleted_at IS NULL AND ${where}`, userId, ...params);
  const stats: Stats = {
    total: await count('1 = 1'),
    favorites: await count('b.is_favorite = 1'),
    unsorted: await count('b.collection_id IS NULL'),
    noTags: await count('NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = b.id)'),
    typeCounts: Object.fromEntries(await Promise.all(TYPES.map(async (type) => [type, await count('b.type = ?', type)]))) as Stats['typeCounts'],
  };
  // COUNT(*) is a BIGINT on PostgreSQL, which the test's connection reads as a number as the server's does.
  const domains = await db.all<z.infer<typeof DomainCount>>(
    'SELECT domain, COUNT(*) AS count FROM bookmarks WHERE user_id = ? AND deleted_at IS NULL GROUP BY domain ORDER BY count DESC, domain ASC',
    userId,
  );
  const perCollection = new Map(
    (
      await db.all<{ id: string; n: number }>(
        'SELECT c.id, (SELECT COUNT(*) FROM bookmarks b WHERE b.collection_id = c.id AND b.deleted_at IS NULL) AS n FROM collections c WHERE c.user_id = ? AND c.deleted_at IS NULL',
        userId,
      )
    ).map((r) => [r.id, r.n]),
  );
  // The groups as /bookmarks/duplicates computed them before the counts were kept.
  const duplicates = await db.all<{ url_key: string; id: string }>(
    `WITH g AS (SELECT url_key, MAX(created_at) AS newest, MAX(seq) AS top FROM bookmarks WHERE user_id = ? AND deleted_at IS NULL
       GROUP BY url_key HAVING COUNT(*) >= 2)
     SELECT b.url_key, b.id FROM g JOIN bookmarks b ON b.user_id = ? AND b.url_key = g.url_key AND b.deleted_at IS NULL
     ORDER BY g.newest DESC, g.top DESC, b.created_at ASC, b.seq ASC`,
    userId,
    userId,
  );
  return { stats, domains, perCollection, duplicates: duplicates.map((r) => [r.url_key, r.id]) };
}

