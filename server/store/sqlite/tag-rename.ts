import Database from 'better-sqlite3';
import type { Db } from '../../db/database.ts';
import { tagKey } from '../shared/tag-names.ts';
import { checkNotUnderItself, parentName, renamedSubtree, takenOutside } from '../shared/tag-tree.ts';
import { TagLookups } from './tag-lookups.ts';
import { ensureTags } from './tag-rows.ts';

/**
 * A tag's rename, names of its whole subtree included, as one transaction: atomic, so that no
 * reader ever sees a hierarchy half renamed. At MAX_TAGS_PER_USER tags it rewrites 5,000 rows
 * and their entries in the unique name index, some 40 ms of CPU, which is why the server runs
 * it on a thread of its own (tag-rename-thread.ts) rather than on the event loop.
 */
export class SubtreeRenamer {
  private lookups: TagLookups;
  private q;

  constructor(private db: Db) {
    this.lookups = new TagLookups(db);
    this.q = {
      // One statement for the whole subtree (10,000 single-row UPDATEs took 100 ms), the names worked out beforehand.
      renameAll: db.prepare<[string]>(
        `UPDATE tags SET name = r.value ->> 'name', name_key = r.value ->> 'key' FROM json_each(?) r WHERE tags.id = r.value ->> 'id'`,
      ),
      setParent: db.prepare<[string | null, string]>('UPDATE tags SET parent_id = ? WHERE id = ?'),
    };
  }

  /** Renames the tag and the names under it; answers the ids of the tags renamed, the tag's first. */
  rename(userId: string, id: string, newName: string, now: number): string[] {
    return this.db.transaction((): string[] => {
      const tag = this.lookups.tag(userId, id);
      checkNotUnderItself(tag, newName);
      const members = this.lookups.withDescendants(userId, tag);
      const renamed = renamedSubtree(members, newName);
      const parent = parentName(newName);
      const parentId = parent === null ? null : ensureTags(this.db, userId, [parent], now)[0]!;
      const ids = members.map((m) => m.id);
      try {
        this.q.renameAll.run(JSON.stringify(renamed.map((r) => ({ ...r, key: tagKey(r.name) }))));
      } catch (err) {
        if (!(err instanceof Database.SqliteError && err.code === 'SQLITE_CONSTRAINT_UNIQUE')) throw err;
        throw (
          takenOutside(renamed, new Set(ids), (key) => this.lookups.byKey(userId, key)) ??
          new Error('a rename broke a uniqueness rule without a name taken outside its subtree')
        );
      }
      this.q.setParent.run(parentId, id);
      return ids;
    })();
  }
}
