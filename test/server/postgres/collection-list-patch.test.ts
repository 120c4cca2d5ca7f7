import { beforeEach, describe, expect, it } from 'vitest';
import type { PatchCollectionBody } from '../../../lib/api/collection-edits.ts';
import type { Collection } from '../../../lib/api/collections.ts';
import { Pg } from '../../../server/db/postgres/pg.ts';
import type { SerializedJson } from '../../../server/http/serialized-json.ts';
import { PgCollections } from '../../../server/store/postgres/collections.ts';
import { addUser, freshDb, pgOf, seedBookmarks, withCluster } from './library-fixtures.ts';

/**
 * GET /collections on PostgreSQL after an edit of a collection's own fields: the list last built is
 * patched rather than built again by the database, and must be byte for byte the list a fresh build
 * gives; any other write, here or on another instance (another store on the same database), makes
 * the next list a fresh build. The file's own cluster: no other file's writes move its snapshots.
 */

withCluster();

const NOW = 1_750_000_000_000;

/** A pool that remembers the statements run on it outside transactions (the list's build is one of them), and calls `before` first. */
class CountingPg extends Pg {
  statements: string[] = [];
  before?: (text: string) => void;

  override get<R extends object>(text: string, params?: readonly unknown[]): Promise<R | undefined> {
    this.statements.push(text);
    this.before?.(text);
    return super.get<R>(text, params);
  }
}

const builds = (db: CountingPg) => db.statements.filter((s) => s.includes('string_agg')).length;
const text = (json: SerializedJson<unknown>) => Buffer.concat(json.parts).toString('utf8');

describe('the collection list after edits on PostgreSQL', () => {
  let db: CountingPg;
  let store: PgCollections;
  let user: string;
  let made: Collection[];

  /** What a store that kept no list answers: a fresh build. */
  const fresh = async () => text((await new PgCollections(db).listSerialized(user)));
  const listed = async (on = store) => text((await on.listSerialized(user)));

  beforeEach(async () => {
    const backend = await freshDb('postgres');
    db = new CountingPg(pgOf(backend).pool);
    store = new PgCollections(db);
    user = await addUser(backend);
    made = [];
    const make = async (name: string, parentId: string | null = null) => {
      made.push(await store.create(user, { name, parentId }, NOW + made.length));
      return made.at(-1)!.id;
    };
    const work = await make('Work');
    const deep = await make('Deep', await make('Projects', work));
    await make('Inside deep', deep);
    await make('Reading');
    await make('Last');
    await seedBookmarks(backend, user, 3, { collectionId: deep });
  });

  const edit = (c: Collection, patch: PatchCollectionBody) => store.update(user, c.id, patch, NOW + 1_000);

  it('patches edits of a collection\'s own fields into the last list, byte for byte what a fresh build answers', async () => {
    await listed();
    expect(builds(db)).toBe(1);
    const edits: [Collection, PatchCollectionBody][] = [
      [made[0]!, { name: 'Work, "quoted" \\ and \u2028 {"id":"col_x"}' }],
      [made[2]!, { icon: '📁', color: '#a0b1c2' }],
      [made[3]!, { notes: 'Line one\nline "two"\t' }],
      [made.at(-1)!, { name: 'The last root' }],
      [made[1]!, { name: 'Projects, renamed', parentId: made[0]!.id }],
    ];
    for (const [collection, patch] of edits) {
      await edit(collection, patch);
      const list = await listed();
      expect(list).toBe(await fresh());
      expect(JSON.parse(list)).toContainEqual(expect.objectContaining({ id: collection.id, ...patch }));
    }
    // Only the first list and the fresh ones beside each: the store's own were patched.
    expect(builds(db)).toBe(1 + edits.length);
  });

  it('builds the list again after writes it cannot patch: a move, a reorder, a create, a trash and a restore, a share, a bookmark counted', async () => {
    const [work, projects, deep, , reading] = made as [Collection, Collection, Collection, Collection, Collection];
    const writes: (() => Promise<unknown>)[] = [
      () => edit(deep, { parentId: reading.id }),
      () => edit(reading, { order: 0 }),
      () => edit(projects, { name: 'Renamed and moved', parentId: null }),
      () => store.create(user, { name: 'New', parentId: work.id }, NOW + 2_000),
      () => store.trash(user, work.id, NOW + 3_000),
      () => store.restore(user, work.id, NOW + 4_000),
      () => store.setShared(user, reading.id, true, NOW + 5_000),
      () => db.run('UPDATE collections SET active_count = active_count + 1 WHERE id = $1', [reading.id]),
    ];
    let before = await listed();
    for (const write of writes) {
      await write();
      const list = await listed();
      expect(list).not.toBe(before);
      expect(list).toBe(await fresh());
      before = list;
    }
  });

  it('does not patch a list another instance wrote after: its edit and the other\'s both shown', async () => {
    const other = new PgCollections(db);
    await listed();
    await listed(other);
    await other.update(user, made[0]!.id, { name: 'Named on the other instance' }, NOW + 1_000);
    await edit(made[3]!, { name: 'Named here' });
    const list = await listed();
    expect(list).toBe(await fresh());
    expect(await listed(other)).toBe(list);
    expect(JSON.parse(list).map((c: Collection) => c.name)).toEqual(expect.arrayContaining(['Named on the other instance', 'Named here']));
  });

  it('answers a list asked for between an edit\'s commit and its patch with the edit in it, patched rather than built', async () => {
    await listed();
    let meanwhile: Promise<string> | undefined;
    // The edit's read after its commit: the list is asked for then, before the edit is patched in.
    db.before = (statement) => {
      if (statement.includes('AS snapshot FROM (')) meanwhile ??= listed();
    };
    await edit(made[3]!, { name: 'Renamed meanwhile' });
    db.before = undefined;
    const list = await meanwhile!;
    expect(JSON.parse(list).map((c: Collection) => c.name)).toContain('Renamed meanwhile');
    expect(list).toBe(await fresh());
    expect(builds(db)).toBe(2);
  });

  it('refuses a bad edit without touching the kept list', async () => {
    const list = await listed();
    await expect(edit({ ...made[0]!, id: 'col_missing' }, { name: 'Nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(edit(made[0]!, { parentId: made[2]!.id })).rejects.toBeDefined();
    expect(await listed()).toBe(list);
    expect(builds(db)).toBe(1);
  });
});
