import { type TestUser, startTestServer } from '../test/support/server.ts';

/** How long, and how often the account renames meanwhile: as the collections section's rename row. */
const SECONDS = 5;
const WRITE_EVERY_MS = 200;

export interface OtherUserMisses {
  /** The other user's requests that the read cache did not answer. */
  misses: number;
  requests: number;
  renames: number;
}

/**
 * The collections section's rename row as counts, which no load on the machine changes: one account
 * renames a collection every WRITE_EVERY_MS while another asks for GET /bookmarks?limit=1 one request
 * after another, and the other user's read-cache misses are counted (a server in this process, its
 * cache's look-ups watched: whatever the cache's own signature, a look-up of a key of the other user's
 * that finds nothing). On SQLite, or on the PostgreSQL database `databaseUrl`.
 */
export async function otherUserMissesWhileRenaming(databaseUrl?: string): Promise<OtherUserMisses> {
  const t = await startTestServer({ raiseLimits: true, ...(databaseUrl === undefined ? {} : { databaseUrl }) });
  try {
    const [writer, other] = [await t.user(), await t.user()];
    const made = await writer.api('POST', '/collections', { body: { name: 'Renamed 0' } });
    const id = (made.body as { data: { id: string } }).data.id;
    const misses = countMisses(t.server.deps.responseCache, other);
    let renames = 0;
    let requests = 0;
    const end = Date.now() + SECONDS * 1000;
    const renaming = (async () => {
      while (Date.now() < end) {
        const wait = new Promise((resolve) => setTimeout(resolve, WRITE_EVERY_MS));
        const renamed = await writer.api('PATCH', `/collections/${id}`, { body: { name: `Renamed ${renames + 1}` } });
        if (renamed.status !== 200) throw new Error(`rename: ${renamed.status}`);
        renames++;
        await wait;
      }
    })();
    while (Date.now() < end) {
      const read = await other.api('GET', '/bookmarks?limit=1');
      if (read.status !== 200) throw new Error(`GET /bookmarks: ${read.status}`);
      requests++;
    }
    await renaming;
    return { misses: misses(), requests, renames };
  } finally {
    await t.close();
  }
}

/** Counts from now on the cache's look-ups of `user`'s keys (each begins with the user's id) that find nothing. */
function countMisses(cache: object, user: TestUser): () => number {
  const watched = cache as { get: (...args: unknown[]) => unknown };
  const get = watched.get.bind(cache);
  let misses = 0;
  watched.get = (...args) => {
    const found = get(...args);
    if (found === undefined && args.some((arg) => typeof arg === 'string' && arg.startsWith(`${user.userId} `))) misses++;
    return found;
  };
  return () => misses;
}
