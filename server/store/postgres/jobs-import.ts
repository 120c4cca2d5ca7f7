import { domainOf, normaliseUrl } from '../../../lib/url.ts';
import type { Pg, Sql } from '../../db/postgres/pg.ts';
import { newId } from '../../ids.ts';
import type { InterchangeCollection } from '../../interchange/types.ts';
import { defaultFavicon } from '../../metadata/extract.ts';
import type { BatchPosition, ImportEntry, ImportWriter, JobRecord, SkippedReason } from '../jobs.ts';
import { JobGone, newSlug, noLookups, siblingKey } from '../shared/import-lookups.ts';
import { overTagCap, tagKey } from '../shared/tag-names.ts';
import { findOrCreateTags, newTagCount, userTagCount } from './tag-rows.ts';

type Entry = Extract<ImportEntry, { ok: true }>;

/**
 * One run of one import job on PostgreSQL, as SqliteImportWriter does it on SQLite: each batch
 * one transaction (locked on the user, as every write to a library is) that also records the
 * job's position and counts, and only while the job's lease holder is still the one writing.
 * A batch asks which of its URLs the user has in one statement, since every statement is a
 * round trip here.
 */
export class PgImportWriter implements ImportWriter {
  private readonly userId: string;
  private readonly jobId: string;
  private readonly leaseOwner: string | null;
  private lookups = noLookups();
  private readonly refusals: SkippedReason[] = [];

  constructor(
    private readonly db: Pg,
    job: JobRecord,
  ) {
    this.userId = job.userId;
    this.jobId = job.id;
    this.leaseOwner = job.leaseOwner;
  }

  async ensureCollections(collections: readonly InterchangeCollection[], now: number): Promise<void> {
    await this.transaction(async (tx) => {
      for (const c of collections) await this.collectionAt(tx, c.path, now, c);
    });
  }

  async writeBatch(entries: readonly ImportEntry[], at: BatchPosition, now: number): Promise<boolean> {
    const counts = { imported: 0, skipped: 0, duplicates: 0 };
    const refusals: SkippedReason[] = [];
    try {
      await this.transaction(async (tx) => {
        const known = await this.knownUrls(tx, entries);
        for (const entry of entries) {
          if (!entry.ok) counts.skipped++;
          else if (known.has(entry.url)) counts.duplicates++;
          else {
            const refusal = await this.tagCapRefusal(tx, entry.tags);
            if (refusal === null) {
              // Now rather than with the batch: the next entry's tag count must see the tags this one made.
              await this.insert(tx, entry, now);
              known.add(entry.url);
              counts.imported++;
            } else {
              refusals.push({ reason: `${entry.url.slice(0, 100)}: ${refusal}` });
              counts.skipped++;
            }
          }
        }
        const recorded = await tx.run(
          `UPDATE jobs SET position = $1, progress = $2, imported = imported + $3, skipped = skipped + $4, duplicates = duplicates + $5
           WHERE id = $6 AND status = 'running' AND lease_owner IS NOT DISTINCT FROM $7`,
          [at.position, at.progress, counts.imported, counts.skipped, counts.duplicates, this.jobId, this.leaseOwner],
        );
        if (recorded !== 1) throw new JobGone();
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

  async close(): Promise<void> {}

  private async transaction(work: (tx: Sql) => Promise<void>): Promise<void> {
    this.lookups = noLookups();
    try {
      await this.db.transaction(work, { lock: `user:${this.userId}` });
    } finally {
      this.lookups = noLookups();
    }
  }

  /** Which of the entries' URLs the user has already (active or trashed, exact match). */
  private async knownUrls(tx: Sql, entries: readonly ImportEntry[]): Promise<Set<string>> {
    const urls = entries.flatMap((e) => (e.ok ? [e.url] : []));
    const rows = await tx.all<{ url: string }>('SELECT DISTINCT url FROM bookmarks WHERE user_id = $1 AND url = ANY($2::text[])', [
      this.userId,
      urls,
    ]);
    return new Set(rows.map((r) => r.url));
  }

  private async insert(tx: Sql, entry: Entry, now: number): Promise<void> {
    const id = newId('bm');
    const collectionId = await this.collectionAt(tx, entry.collectionPath, now);
    const createdAt = entry.createdAt ?? now;
    await tx.run(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, note, type, is_favorite, collection_id,
         domain, favicon, metadata_status, link_status, last_checked_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'skipped', 'unchecked', $13, $13, $14)`,
      [
        id,
        this.userId,
        entry.url,
        normaliseUrl(entry.url),
        entry.title,
        entry.description,
        entry.note,
        entry.type,
        entry.isFavorite ? 1 : 0,
        collectionId,
        domainOf(entry.url),
        defaultFavicon(entry.url),
        createdAt,
        now,
      ],
    );
    for (const name of entry.tags) {
      await tx.run('INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, await this.tagId(tx, name, now)]);
    }
  }

  /**
   * The collection at this path, found level by level (an active collection of that name,
   * case-insensitively, under the same parent; the oldest if several) or created, with
   * `created`'s attributes for the last level.
   */
  private async collectionAt(tx: Sql, path: readonly string[], now: number, created: Partial<InterchangeCollection> = {}): Promise<string | null> {
    let parentId: string | null = null;
    for (const [level, name] of path.entries()) {
      const key = siblingKey(parentId, name);
      let id: string | undefined = this.lookups.collections.get(key) ?? (await this.findSibling(tx, parentId, name));
      if (id === undefined) {
        id = newId('col');
        const last = level === path.length - 1;
        await tx.run(
          `INSERT INTO collections (id, user_id, name, icon, color, parent_id, sort_order, notes, share_slug, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
          [
            id,
            this.userId,
            name,
            last ? (created.icon ?? '') : '',
            last ? (created.color ?? '') : '',
            parentId,
            await this.takeOrder(tx, parentId),
            last ? (created.notes ?? '') : '',
            newSlug(),
            now,
          ],
        );
        this.lookups.siblings.get(parentId ?? '')?.set(name.toLowerCase(), id);
      }
      this.lookups.collections.set(key, id);
      parentId = id;
    }
    return parentId;
  }

  private async findSibling(tx: Sql, parentId: string | null, name: string): Promise<string | undefined> {
    let siblings = this.lookups.siblings.get(parentId ?? '');
    if (siblings === undefined) {
      siblings = new Map();
      const rows = await tx.all<{ id: string; name: string }>(
        'SELECT id, name FROM collections WHERE user_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL ORDER BY seq',
        [this.userId, parentId],
      );
      for (const c of rows) {
        if (!siblings.has(c.name.toLowerCase())) siblings.set(c.name.toLowerCase(), c.id);
      }
      this.lookups.siblings.set(parentId ?? '', siblings);
    }
    return siblings.get(name.toLowerCase());
  }

  private async takeOrder(tx: Sql, parentId: string | null): Promise<number> {
    const key = parentId ?? '';
    let order = this.lookups.nextOrder.get(key);
    if (order === undefined) {
      const row = await tx.get<{ next: number }>(
        'SELECT COALESCE(MAX(sort_order) + 1, 0) AS next FROM collections WHERE user_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL',
        [this.userId, parentId],
      );
      order = row!.next;
    }
    this.lookups.nextOrder.set(key, order + 1);
    return order;
  }

  /** Why the entry's new tags would take the user past MAX_TAGS_PER_USER, or null (then they are counted as made). */
  private async tagCapRefusal(tx: Sql, names: readonly string[]): Promise<string | null> {
    const adding = await newTagCount(tx, this.userId, names);
    if (adding === 0) return null;
    const existing = (this.lookups.tagCount ??= await userTagCount(tx, this.userId));
    const refusal = overTagCap(existing, adding);
    if (refusal === null) this.lookups.tagCount = existing + adding;
    return refusal;
  }

  private async tagId(tx: Sql, name: string, now: number): Promise<string> {
    const key = tagKey(name);
    let id = this.lookups.tags.get(key);
    if (id === undefined) {
      const row = await tx.get<{ id: string }>('SELECT id FROM tags WHERE user_id = $1 AND name_key = $2', [this.userId, key]);
      id = row?.id ?? ((await findOrCreateTags(tx, this.userId, [name], now)) as [string])[0];
    }
    this.lookups.tags.set(key, id);
    return id;
  }
}
