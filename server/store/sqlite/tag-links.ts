import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../../db/database.ts';
import { CHUNK, type Link, SLICE_MS } from '../shared/tag-slices.ts';

/**
 * Runs `step` (a small piece of work; false once nothing is left) over and over, in
 * transactions of about SLICE_MS each (server/store/shared/tag-slices.ts), with a turn of
 * the event loop between them: SQLite's calls hold it while they run. A step
 * that throws undoes its own slice only and stops the work.
 */
export async function inSlices(db: Db, step: () => boolean): Promise<void> {
  let more = true;
  while (more) {
    const started = performance.now();
    db.transaction(() => {
      do more = step();
      while (more && performance.now() - started < SLICE_MS);
    })();
    if (more) await nextTurn();
  }
}

/** Runs `step` over the items CHUNK at a time, in slices. */
export function forEachChunk<T>(db: Db, items: readonly T[], step: (chunk: T[]) => void): Promise<void> {
  let next = 0;
  return inSlices(db, () => {
    step(items.slice(next, next + CHUNK));
    next += CHUNK;
    return next < items.length;
  });
}

/**
 * Calls `work` with the links of these tags, tag after tag in link order, CHUNK at a time,
 * in slices. `work` may delete the links it gets: the walk goes on after the last one seen.
 */
export function forEachLinkChunk(db: Db, tagIds: readonly string[], work: (links: Link[]) => void): Promise<void> {
  const page = db.prepare<[string, number, number], Link>(
    'SELECT seq, bookmark_id FROM bookmark_tags WHERE tag_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  let tag = 0;
  let after = 0;
  return inSlices(db, () => {
    const links: Link[] = [];
    // Tags without links cost a look-up each: a step looks at CHUNK tags at most.
    for (let looked = 0; links.length < CHUNK && looked < CHUNK && tag < tagIds.length; looked++) {
      const wanted = CHUNK - links.length;
      const rows = page.all(tagIds[tag]!, after, wanted);
      links.push(...rows);
      if (rows.length < wanted) {
        tag++;
        after = 0;
      } else after = rows.at(-1)!.seq;
    }
    if (links.length > 0) work(links);
    return tag < tagIds.length;
  });
}
