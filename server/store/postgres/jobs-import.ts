import { domainOf, normaliseUrl } from '../../../lib/url.ts';
import type { Pg, Sql } from '../../db/postgres/pg.ts';
import { newId } from '../../ids.ts';
import type { InterchangeCollection } from '../../interchange/types.ts';
import { defaultFavicon } from '../../metadata/extract.ts';
import type { BatchPosition, ImportEntry, ImportWriter, JobRecord, SkippedReason } from '../jobs.ts';
import { CappedFolders, JobGone } from '../shared/import-lookups.ts';
import { overTagCap } from '../shared/tag-names.ts';
import { collectionsAt } from './import-collections.ts';
import { TagPlan, userTagCount } from './tag-rows.ts';

type Entry = Extract<ImportEntry, { ok: true }>;
/** An entry the batch imports, and the ids of its tags (some only planned). */
interface Accepted {
  entry: Entry;
  tagIds: string[];
}

/**
 * One run of one import job on PostgreSQL, with SqliteImportWriter's results: each batch one
 * transaction (locked on the user, as every write to a library is) that also records the job's
 * position and counts, and only while the job's lease holder is still the one writing. Every
 * statement is a round trip here, so a batch is written in a few set-based statements whatever
 * its size: one look-up of its URLs, one of its tags, one read per level of its folders, then
 * one INSERT each of the collections, tags, bookmarks and tag links it makes; which entries are
 * duplicates or refused is decided in between, entry by entry in file order, as SQLite does.
 */
export class PgImportWriter implements ImportWriter {
  private readonly userId: string;
  private readonly jobId: string;
  private readonly leaseOwner: string | null;
  private readonly refusals: SkippedReason[] = [];
  private readonly capped = new CappedFolders();

  constructor(
    private readonly db: Pg,
    job: JobRecord,
  ) {
    this.userId = job.userId;
    this.jobId = job.id;
    this.leaseOwner = job.leaseOwner;
  }

  async ensureCollections(collections: readonly InterchangeCollection[], now: number): Promise<void> {
    await this.db.transaction((tx) => collectionsAt(tx, this.userId, collections.map((c) => ({ path: c.path, created: c })), now, this.capped), {
      lock: this.lock(),
    });
  }

  async writeBatch(entries: readonly ImportEntry[], at: BatchPosition, now: number): Promise<boolean> {
    const counts = { imported: 0, skipped: 0, duplicates: 0 };
    const refusals: SkippedReason[] = [];
    try {
      await this.db.transaction(
        async (tx) => {
          const { accepted, tags } = await this.sort(tx, entries, counts, refusals);
          await this.insert(tx, accepted, tags, now);
          const recorded = await tx.run(
            `UPDATE jobs SET position = $1, progress = $2, imported = imported + $3, skipped = skipped + $4, duplicates = duplicates + $5
             WHERE id = $6 AND status = 'running' AND lease_owner IS NOT DISTINCT FROM $7`,
            [at.position, at.progress, counts.imported, counts.skipped, counts.duplicates, this.jobId, this.leaseOwner],
          );
          if (recorded !== 1) throw new JobGone();
        },
        { lock: this.lock() },
      );
      this.refusals.push(...refusals);
      return true;
    } catch (err) {
      if (err instanceof JobGone) return false;
      throw err;
    }
  }

  /**
   * Which entries the batch imports, decided entry by entry in file order, counting the others
   * (unreadable, duplicates of the library or of an earlier entry, refused for the tag cap);
   * answers them with the plan of the tags they need.
   */
  private async sort(
    tx: Sql,
    entries: readonly ImportEntry[],
    counts: { imported: number; skipped: number; duplicates: number },
    refusals: SkippedReason[],
  ): Promise<{ accepted: Accepted[]; tags: TagPlan }> {
    const candidates = entries.filter((e): e is Entry => e.ok);
    const known = await this.knownUrls(tx, candidates);
    const tags = await TagPlan.read(tx, this.userId, candidates.flatMap((e) => e.tags));
    let tagCount: number | undefined;
    const accepted: Accepted[] = [];
    for (const entry of entries) {
      if (!entry.ok) counts.skipped++;
      else if (known.has(entry.url)) counts.duplicates++;
      else {
        // Counted as the entries come: the next entry's refusal must see the tags this one makes.
        const adding = tags.missing(entry.tags);
        const existing = adding === 0 ? 0 : (tagCount ??= await userTagCount(tx, this.userId));
        const refusal = overTagCap(existing, adding);
        if (refusal === null) {
          if (adding > 0) tagCount = existing + adding;
          accepted.push({ entry, tagIds: tags.idsOf(entry.tags) });
          known.add(entry.url);
          counts.imported++;
        } else {
          refusals.push({ reason: `${entry.url.slice(0, 100)}: ${refusal}` });
          counts.skipped++;
        }
      }
    }
    return { accepted, tags };
  }

  rejected(): readonly SkippedReason[] {
    return this.refusals;
  }

  collectionsCapped(): number {
    return this.capped.size;
  }

  async close(): Promise<void> {}

  private lock(): string {
    return `user:${this.userId}`;
  }

  /**
   * Which of the entries' URLs the user has already (active or trashed, exact match): one look-up
   * by (user, URL) each, which `url = ANY(…)` is not always planned as (while the statistics
   * lag behind a growing library it read all of the user's bookmarks).
   */
  private async knownUrls(tx: Sql, entries: readonly Entry[]): Promise<Set<string>> {
    const rows = await tx.all<{ url: string }>(
      `SELECT u.url FROM unnest($2::text[]) AS u(url)
       CROSS JOIN LATERAL (SELECT 1 FROM bookmarks b WHERE b.user_id = $1 AND b.url = u.url LIMIT 1) AS known`,
      [this.userId, entries.map((e) => e.url)],
    );
    return new Set(rows.map((r) => r.url));
  }

  /** The accepted entries' folders, new tags, bookmarks and tag links, each kind in one statement, in file order. */
  private async insert(tx: Sql, accepted: readonly Accepted[], tags: TagPlan, now: number): Promise<void> {
    if (accepted.length === 0) return;
    const collectionIds = await collectionsAt(tx, this.userId, accepted.map(({ entry }) => ({ path: entry.collectionPath })), now, this.capped);
    await tags.create(tx, this.userId, now);
    const rows = accepted.map(({ entry }, i) => ({ id: newId('bm'), entry, collectionId: collectionIds[i]! }));
    const column = <T>(value: (row: (typeof rows)[number]) => T): T[] => rows.map(value);
    await tx.run(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, note, type, is_favorite, collection_id,
         domain, favicon, metadata_status, link_status, last_checked_at, created_at, updated_at)
       SELECT b.id, $1, b.url, b.url_key, b.title, b.description, b.note, b.type, b.is_favorite, b.collection_id,
         b.domain, b.favicon, 'skipped', 'unchecked', b.created_at, b.created_at, $2
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::integer[], $11::text[],
           $12::text[], $13::text[], $14::bigint[])
         WITH ORDINALITY AS b(id, url, url_key, title, description, note, type, is_favorite, collection_id, domain, favicon, created_at, i)
       ORDER BY b.i`,
      [
        this.userId,
        now,
        column((r) => r.id),
        column((r) => r.entry.url),
        column((r) => normaliseUrl(r.entry.url)),
        column((r) => r.entry.title),
        column((r) => r.entry.description),
        column((r) => r.entry.note),
        column((r) => r.entry.type),
        column((r) => (r.entry.isFavorite ? 1 : 0)),
        column((r) => r.collectionId),
        column((r) => domainOf(r.entry.url)),
        column((r) => defaultFavicon(r.entry.url)),
        column((r) => r.entry.createdAt ?? now),
      ],
    );
    const links = rows.flatMap((r, i) => accepted[i]!.tagIds.map((tagId) => [r.id, tagId] as const));
    if (links.length === 0) return;
    await tx.run(
      `INSERT INTO bookmark_tags (bookmark_id, tag_id)
       SELECT l.bookmark_id, l.tag_id FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS l(bookmark_id, tag_id, i) ORDER BY l.i
       ON CONFLICT DO NOTHING`,
      [links.map(([bookmarkId]) => bookmarkId), links.map(([, tagId]) => tagId)],
    );
  }
}
