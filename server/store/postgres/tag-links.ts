import type { Pg, Sql } from '../../db/postgres/pg.ts';
import { CHUNK, type Link, SLICE_MS } from '../shared/tag-slices.ts';

/**
 * Runs `step` (a small piece of work; false once nothing is left) over and over, in
 * transactions of about SLICE_MS each (server/store/shared/tag-slices.ts), each under the
 * user's lock, so that the user's other writes get their turn between slices. A step that
 * throws undoes its own slice only and stops the work.
 */
export async function inSlices(db: Pg, userId: string, step: (tx: Sql) => Promise<boolean>): Promise<void> {
  let more = true;
  while (more) {
    const started = performance.now();
    await db.transaction(
      async (tx) => {
        do more = await step(tx);
        while (more && performance.now() - started < SLICE_MS);
      },
      { lock: `user:${userId}` },
    );
  }
}

/** Runs `step` over the items CHUNK at a time, in slices. */
export function forEachChunk<T>(db: Pg, userId: string, items: readonly T[], step: (tx: Sql, chunk: T[]) => Promise<void>): Promise<void> {
  let next = 0;
  return inSlices(db, userId, async (tx) => {
    await step(tx, items.slice(next, next + CHUNK));
    next += CHUNK;
    return next < items.length;
  });
}

/**
 * The next CHUNK links of the tags $1 (in that order, each in link order), those of the first
 * after seq $2: one statement for up to CHUNK tags, as most tags of a subtree may have no link.
 */
const NEXT_LINKS = `SELECT t.n, l.seq, l.bookmark_id FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)
  CROSS JOIN LATERAL (SELECT bt.seq, bt.bookmark_id FROM bookmark_tags bt
    WHERE bt.tag_id = t.id AND bt.seq > CASE WHEN t.n = 1 THEN $2::bigint ELSE 0 END ORDER BY bt.seq LIMIT $3) l
  ORDER BY t.n, l.seq LIMIT $3`;

/**
 * Calls `work` with the links of these tags, tag after tag in link order, CHUNK at a time,
 * in slices. `work` may delete the links it gets: the walk goes on after the last one seen.
 */
export function forEachLinkChunk(db: Pg, userId: string, tagIds: readonly string[], work: (tx: Sql, links: Link[]) => Promise<void>): Promise<void> {
  let tag = 0;
  let after = 0;
  return inSlices(db, userId, async (tx) => {
    const looked = tagIds.slice(tag, tag + CHUNK);
    const rows = await tx.all<{ n: number; seq: number; bookmark_id: string }>(NEXT_LINKS, [looked, after, CHUNK]);
    const last = rows.at(-1);
    if (rows.length === CHUNK && last) {
      // The last tag met may have more links: the next step starts there.
      tag += last.n - 1;
      after = last.seq;
    } else {
      tag += looked.length;
      after = 0;
    }
    if (rows.length > 0) await work(tx, rows.map((r) => ({ seq: r.seq, bookmark_id: r.bookmark_id })));
    return tag < tagIds.length;
  });
}
