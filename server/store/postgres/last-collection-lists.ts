import type { Collection } from '../../../lib/api/collections.ts';

/**
 * At most this many bytes of lists are kept: a list at the 10,000-collection cap is about 4.4 MB,
 * so the last lists of three such accounts and many small ones.
 */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;

/**
 * More transactions than this finished between a list and a write: the write is not patched in
 * (it would be the only one of them very rarely, and listing them costs a loop over the range).
 */
const MAX_FINISHED_BETWEEN = 64n;

/** pg_current_snapshot's text: `xmin:xmax:xip,...`, each a transaction id (xid8). */
interface Snapshot {
  xmax: bigint;
  running: Set<bigint>;
}

const parseSnapshot = (text: string): Snapshot => {
  const [, xmax, xip] = text.split(':');
  return { xmax: BigInt(xmax!), running: new Set(xip ? xip.split(',').map(BigInt) : []) };
};

/** Whether a transaction had finished (committed or rolled back) in a snapshot. */
const finishedIn = (s: Snapshot, xid: bigint): boolean => xid < s.xmax && !s.running.has(xid);

/**
 * The transactions that finished after `before` and by `after`: those running in `before` or
 * started at or past its xmax that `after` sees finished. Undefined when there may be too many.
 */
function finishedBetween(before: Snapshot, after: Snapshot): bigint[] | undefined {
  if (after.xmax - before.xmax > MAX_FINISHED_BETWEEN) return undefined;
  const finished = [...before.running].filter((xid) => finishedIn(after, xid));
  for (let xid = before.xmax; xid < after.xmax; xid++) if (finishedIn(after, xid)) finished.push(xid);
  return finished;
}

/**
 * More parts than this and a list is built again rather than patched: each patch splits one part in
 * three, and each search goes through them all.
 */
const MAX_PARTS = 1_000;
/** `{"id":"` occurs nowhere but at an object's start: JSON escapes every quote inside a string. */
const itemStart = (id: string): string => `{"id":${JSON.stringify(id)},`;
const NEXT_ITEM = ',{"id":"';
const ITEM_END = '}'.charCodeAt(0);

/** A list kept: its bytes in parts, as built (one) or as patched (views of it, and the objects written again). */
interface KeptList {
  snapshot: string;
  parts: readonly Buffer[];
  byteLength: number;
}

/**
 * Per account, the last GET /collections list this server built or patched, with the database
 * snapshot it is exact at (pg_current_snapshot, the store's version): the list is served again at
 * that snapshot only. A collection's own fields edited here (name, icon, colour, notes: nothing
 * that moves it in the list) are patched into the list when the edit's transaction is the only
 * one that finished since the list's snapshot, so the list is then exact at the snapshot after
 * the edit. Anything else that finished between (another instance's write, a bookmark's count
 * moving, any other user's write) leaves the list behind its snapshot, and the next request
 * builds it again. Rebuilding a list at the cap costs the database about a core's second and
 * the event loop the receiving of a 4.4 MB string; patching, one search and one copy.
 */
export class LastCollectionLists {
  private lists = new Map<string, KeptList>();
  private bytes = 0;
  private editing = new Map<string, Promise<unknown>>();

  /**
   * Runs an edit that may be patched in. Requests for the list wait for it (`settled`): one that
   * came between its commit and its patch would find the list behind and build it again.
   */
  async edit<T>(userId: string, edit: () => Promise<T>): Promise<T> {
    const run = edit();
    const all = Promise.all([this.editing.get(userId), run.catch(() => undefined)]);
    this.editing.set(userId, all);
    try {
      return await run;
    } finally {
      if (this.editing.get(userId) === all) this.editing.delete(userId);
    }
  }

  /** Resolves when the user's edits under way are done (and patched in, where they can be). */
  async settled(userId: string): Promise<void> {
    await this.editing.get(userId);
  }

  /** The user's list, in parts, if it is exact at this snapshot. */
  at(userId: string, snapshot: string): readonly Buffer[] | undefined {
    const last = this.lists.get(userId);
    return last?.snapshot === snapshot ? last.parts : undefined;
  }

  keep(userId: string, snapshot: string, json: Buffer): void {
    this.hold(userId, { snapshot, parts: [json], byteLength: json.byteLength });
  }

  /**
   * After transaction `xid` committed an edit of `edited`'s own fields: `after` is the snapshot
   * `edited` was read at, after the commit. The list is patched only if `xid` alone finished
   * between its snapshot and `after`; otherwise it is dropped (it can never be served again).
   */
  edited(userId: string, xid: string, after: string, edited: Collection): void {
    const last = this.lists.get(userId);
    if (last === undefined) return;
    const finished = finishedBetween(parseSnapshot(last.snapshot), parseSnapshot(after));
    const patched = finished?.length === 1 && finished[0] === BigInt(xid) ? withItem(last, edited) : undefined;
    if (patched === undefined) this.forget(userId);
    else this.hold(userId, { ...patched, snapshot: after });
  }

  private hold(userId: string, list: KeptList): void {
    this.forget(userId);
    if (list.byteLength > MAX_KEPT_BYTES) return;
    this.lists.set(userId, list);
    this.bytes += list.byteLength;
    for (const [oldest] of this.lists) {
      if (this.bytes <= MAX_KEPT_BYTES) break;
      this.forget(oldest);
    }
  }

  private forget(userId: string): void {
    const last = this.lists.get(userId);
    if (last === undefined) return;
    this.lists.delete(userId);
    this.bytes -= last.byteLength;
  }
}

/**
 * The list with `edited`'s object written again in its place, or undefined if the collection is not
 * there or would not stay in its place. Only the new object is made: the part it was in becomes the
 * views before and after it. A copy of the whole list held the event loop 10-40 ms at the cap on a busy
 * machine; the router caches and sends the parts as they are.
 */
function withItem(list: KeptList, edited: Collection): Omit<KeptList, 'snapshot'> | undefined {
  if (list.parts.length > MAX_PARTS) return undefined;
  const needle = itemStart(edited.id);
  for (const [at, part] of list.parts.entries()) {
    const start = part.indexOf(needle);
    if (start < 0) continue;
    // Parts are cut at objects' edges: a part ends with an object of its own (`}`) or before a separator or `]`.
    const next = part.indexOf(NEXT_ITEM, start);
    const end = next >= 0 ? next : part.at(-1) === ITEM_END ? part.byteLength : part.byteLength - 1;
    const old = part.subarray(start, end);
    const placed = (c: Collection) => [c.parentId, c.depth, c.order, c.createdAt, c.bookmarkCount, c.deletedAt];
    if (JSON.stringify(placed(JSON.parse(old.toString('utf8')) as Collection)) !== JSON.stringify(placed(edited))) return undefined;
    const item = Buffer.from(JSON.stringify(edited));
    const around = [part.subarray(0, start), item, part.subarray(end)].filter((p) => p.byteLength > 0);
    const parts = [...list.parts.slice(0, at), ...around, ...list.parts.slice(at + 1)];
    return { parts, byteLength: list.byteLength - old.byteLength + item.byteLength };
  }
  return undefined;
}
