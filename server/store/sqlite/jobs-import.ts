import { domainOf, normaliseUrl } from '../../../lib/url.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import type { InterchangeCollection } from '../../interchange/types.ts';
import { defaultFavicon } from '../../metadata/extract.ts';
import type { BatchPosition, ImportEntry, ImportWriter, JobRecord, SkippedReason } from '../jobs.ts';
import { newSlug } from '../shared/collection-rows.ts';
import { CappedFolders, JobGone, noLookups, siblingKey } from '../shared/import-lookups.ts';
import { deferCheckpoints } from './jobs-checkpoints.ts';
import { overTagCap, tagKey } from '../shared/tag-names.ts';
import { findOrCreateTags, newTagCount, userTagCount } from './tag-rows.ts';

/**
 * One run of one import job. Collection and tag ids are cached for the length of one
 * transaction (a batch), so that a bookmark costs one look-up of its URL, one INSERT and
 * one INSERT per tag, while a collection or tag the user deletes between two batches is
 * never used after it is gone.
 */
export class SqliteImportWriter implements ImportWriter {
  private readonly userId: string;
  private readonly jobId: string;
  private readonly leaseOwner: string | null;
  private lookups = noLookups();
  private readonly q;
  private readonly releaseCheckpoints: () => void;
  private readonly refusals: SkippedReason[] = [];
  private readonly capped = new CappedFolders();

  constructor(
    private readonly db: Db,
    job: JobRecord,
  ) {
    this.userId = job.userId;
    this.jobId = job.id;
    this.leaseOwner = job.leaseOwner;
    this.q = {
      known: db.prepare<[string, string], number>('SELECT 1 FROM bookmarks WHERE user_id = ? AND url = ? LIMIT 1').pluck(),
      insert: db.prepare(
        `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, note, type, is_favorite, collection_id,
           domain, favicon, metadata_status, link_status, last_checked_at, created_at, updated_at)
         VALUES (@id, @userId, @url, @urlKey, @title, @description, @note, @type, @isFavorite, @collectionId,
           @domain, @favicon, 'skipped', 'unchecked', @createdAt, @createdAt, @now)`,
      ),
      tag: db.prepare<[string, string], string>('SELECT id FROM tags WHERE user_id = ? AND name_key = ?').pluck(),
      link: db.prepare<[string, string]>('INSERT OR IGNORE INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, ?)'),
      collectionCount: db.prepare<[string], number>('SELECT COUNT(*) FROM collections WHERE user_id = ?').pluck(),
      siblings: db.prepare<[string, string | null], { id: string; name: string }>(
        'SELECT id, name FROM collections WHERE user_id = ? AND parent_id IS ? AND deleted_at IS NULL ORDER BY seq',
      ),
      collection: db.prepare(
        `INSERT INTO collections (id, user_id, name, icon, color, parent_id, sort_order, notes, share_slug, created_at, updated_at)
         VALUES (@id, @userId, @name, @icon, @color, @parentId, @order, @notes, @slug, @now, @now)`,
      ),
      nextOrder: db
        .prepare<[string, string | null], number>(
          'SELECT COALESCE(MAX(sort_order) + 1, 0) FROM collections WHERE user_id = ? AND parent_id IS ? AND deleted_at IS NULL',
        )
        .pluck(),
      record: db.prepare(
        `UPDATE jobs SET position = @position, progress = @progress, imported = imported + @imported,
           skipped = skipped + @skipped, duplicates = duplicates + @duplicates
         WHERE id = @jobId AND status = 'running' AND lease_owner IS @owner`,
      ),
    };
    this.releaseCheckpoints = deferCheckpoints(db);
  }

  async ensureCollections(collections: readonly InterchangeCollection[], now: number): Promise<void> {
    this.transaction(() => {
      for (const c of collections) this.collectionAt(c.path, now, c);
    });
  }

  async writeBatch(entries: readonly ImportEntry[], at: BatchPosition, now: number): Promise<boolean> {
    const counts = { imported: 0, skipped: 0, duplicates: 0 };
    const refusals: SkippedReason[] = [];
    try {
      this.transaction(() => {
        for (const entry of entries) {
          if (!entry.ok) counts.skipped++;
          else if (this.q.known.get(this.userId, entry.url) !== undefined) counts.duplicates++;
          else {
            const refusal = this.tagCapRefusal(entry.tags);
            if (refusal === null) {
              this.insert(entry, now);
              counts.imported++;
            } else {
              refusals.push({ reason: `${entry.url.slice(0, 100)}: ${refusal}` });
              counts.skipped++;
            }
          }
        }
        const recorded = this.q.record.run({ ...at, ...counts, jobId: this.jobId, owner: this.leaseOwner }).changes === 1;
        if (!recorded) throw new JobGone();
      });
      this.refusals.push(...refusals);
      return true;
    } catch (err) {
      if (err instanceof JobGone) return false;
      throw err;
    }
  }

  rejected(): readonly SkippedReason[] {
    return this.refusals;
  }

  collectionsCapped(): number {
    return this.capped.size;
  }

  async close(): Promise<void> {
    this.releaseCheckpoints();
  }

  private transaction(work: () => void): void {
    this.lookups = noLookups();
    try {
      this.db.transaction(work)();
    } finally {
      this.lookups = noLookups();
    }
  }

  private insert(entry: Extract<ImportEntry, { ok: true }>, now: number): void {
    const id = newId('bm');
    this.q.insert.run({
      id,
      userId: this.userId,
      url: entry.url,
      urlKey: normaliseUrl(entry.url),
      title: entry.title,
      description: entry.description,
      note: entry.note,
      type: entry.type,
      isFavorite: entry.isFavorite ? 1 : 0,
      collectionId: this.collectionAt(entry.collectionPath, now),
      domain: domainOf(entry.url),
      favicon: defaultFavicon(entry.url),
      createdAt: entry.createdAt ?? now,
      now,
    });
    for (const name of entry.tags) this.q.link.run(id, this.tagId(name, now));
  }

  /**
   * The collection at this path, found level by level (an active collection of that name,
   * case-insensitively, under the same parent; the oldest if several) or created, with
   * `created`'s attributes for the last level; once the account holds MAX_COLLECTIONS_PER_USER
   * collections, the deepest level found or made (null: Unsorted).
   */
  private collectionAt(path: readonly string[], now: number, created: Partial<InterchangeCollection> = {}): string | null {
    let parentId: string | null = null;
    for (const [level, name] of path.entries()) {
      const key = siblingKey(parentId, name);
      let id: string | undefined = this.lookups.collections.get(key) ?? this.findSibling(parentId, name);
      if (id === undefined) {
        const count = (this.lookups.collectionCount ??= this.q.collectionCount.get(this.userId)!);
        if (!CappedFolders.room(count)) {
          this.capped.add(path, level);
          return parentId;
        }
        this.lookups.collectionCount = count + 1;
        id = newId('col');
        const last = level === path.length - 1;
        this.q.collection.run({
          id,
          userId: this.userId,
          name,
          icon: last ? (created.icon ?? '') : '',
          color: last ? (created.color ?? '') : '',
          notes: last ? (created.notes ?? '') : '',
          parentId,
          order: this.takeOrder(parentId),
          slug: newSlug(),
          now,
        });
        this.lookups.siblings.get(parentId ?? '')?.set(name.toLowerCase(), id);
      }
      this.lookups.collections.set(key, id);
      parentId = id;
    }
    return parentId;
  }

  private findSibling(parentId: string | null, name: string): string | undefined {
    let siblings = this.lookups.siblings.get(parentId ?? '');
    if (siblings === undefined) {
      siblings = new Map();
      for (const c of this.q.siblings.all(this.userId, parentId)) {
        if (!siblings.has(c.name.toLowerCase())) siblings.set(c.name.toLowerCase(), c.id);
      }
      this.lookups.siblings.set(parentId ?? '', siblings);
    }
    return siblings.get(name.toLowerCase());
  }

  private takeOrder(parentId: string | null): number {
    const key = parentId ?? '';
    const order = this.lookups.nextOrder.get(key) ?? this.q.nextOrder.get(this.userId, parentId)!;
    this.lookups.nextOrder.set(key, order + 1);
    return order;
  }

  /** Why the entry's new tags would take the user past MAX_TAGS_PER_USER, or null (then they are counted as made). */
  private tagCapRefusal(names: readonly string[]): string | null {
    const adding = newTagCount(this.db, this.userId, names);
    if (adding === 0) return null;
    const existing = (this.lookups.tagCount ??= userTagCount(this.db, this.userId));
    const refusal = overTagCap(existing, adding);
    if (refusal === null) this.lookups.tagCount = existing + adding;
    return refusal;
  }

  private tagId(name: string, now: number): string {
    const key = tagKey(name);
    let id = this.lookups.tags.get(key) ?? this.q.tag.get(this.userId, key);
    if (id === undefined) [id] = findOrCreateTags(this.db, this.userId, [name], now) as [string];
    this.lookups.tags.set(key, id);
    return id;
  }
}
