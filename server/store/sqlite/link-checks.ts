import type { LinkStatusCount } from '../../../lib/api/bookmarks.ts';
import type { Db } from '../../db/database.ts';
import type { BulkChange } from '../bookmarks.ts';
import type { DueLink, LinkCheckResult, LinkChecksStore } from '../link-checks.ts';
import { DUE_USERS_SQL, FREE_LEASE } from '../shared/link-check-sql.ts';
import { refuseTrashed, requireFound } from '../shared/bookmark-results.ts';

const IN_IDS = 'IN (SELECT value FROM json_each(@ids))';

export class SqliteLinkChecks implements LinkChecksStore {
  private q;

  constructor(private db: Db) {
    this.q = {
      candidates: db.prepare<[Record<string, unknown>], string>(DUE_USERS_SQL.replace(/\$(\w+)/g, '@$1')).pluck(),
      claim: db.prepare<[Record<string, unknown>]>(
        `INSERT INTO link_check_users (user_id, lease_owner, lease_until) VALUES (@userId, @owner, @until)
         ON CONFLICT (user_id) DO UPDATE SET lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
         WHERE ${FREE_LEASE.replace(/\$(\w+)/g, '@$1')}`,
      ),
      renew: db.prepare<[number, string, string]>('UPDATE link_check_users SET lease_until = ? WHERE user_id = ? AND lease_owner = ?'),
      // lease_until stays: it tells which user was worked for least recently (candidates' order).
      release: db.prepare<[string, string]>('UPDATE link_check_users SET lease_owner = NULL WHERE user_id = ? AND lease_owner = ?'),
      checksOn: db.prepare<[number, string], number>('SELECT CASE WHEN day = ? THEN checks ELSE 0 END FROM link_check_users WHERE user_id = ?').pluck(),
      due: db.prepare<[string, number, number], DueLink>(
        `SELECT id, url FROM bookmarks
         WHERE user_id = ? AND deleted_at IS NULL AND link_checked_at < ? ORDER BY link_checked_at LIMIT ?`,
      ),
      holds: db.prepare<[string, string], number>('SELECT 1 FROM link_check_users WHERE user_id = ? AND lease_owner = ?').pluck(),
      write: db.prepare<[Record<string, unknown>]>(
        `UPDATE bookmarks SET link_status = @linkStatus, http_status_code = @httpStatusCode, last_checked_at = @now, link_checked_at = @now
         WHERE id = @id AND user_id = @userId`,
      ),
      count: db.prepare<[Record<string, unknown>]>(
        `UPDATE link_check_users SET checks = CASE WHEN day = @day THEN checks + @n ELSE @n END, day = @day
         WHERE user_id = @userId AND lease_owner = @owner`,
      ),
      owned: db.prepare<[Record<string, unknown>], { id: string; deleted_at: number | null }>(
        `SELECT id, deleted_at FROM bookmarks WHERE user_id = @userId AND id ${IN_IDS}`,
      ),
      makeDue: db.prepare<[Record<string, unknown>]>(`UPDATE bookmarks SET link_checked_at = 0 WHERE user_id = @userId AND id ${IN_IDS}`),
      counts: db.prepare<[string], LinkStatusCount>(
        `SELECT link_status AS linkStatus, COUNT(*) AS count FROM bookmarks
         WHERE user_id = ? AND deleted_at IS NULL GROUP BY link_status ORDER BY link_status`,
      ),
    };
  }

  async candidates(dueBefore: number, at: number, day: number, cap: number, limit: number): Promise<string[]> {
    return this.q.candidates.all({ dueBefore, at, day, cap, limit });
  }

  async claim(userId: string, owner: string, until: number, at: number): Promise<boolean> {
    return this.q.claim.run({ userId, owner, until, at }).changes === 1;
  }

  async renew(userId: string, owner: string, until: number): Promise<boolean> {
    return this.q.renew.run(until, userId, owner).changes === 1;
  }

  async release(userId: string, owner: string): Promise<void> {
    this.q.release.run(userId, owner);
  }

  async checksOn(userId: string, day: number): Promise<number> {
    return this.q.checksOn.get(day, userId) ?? 0;
  }

  async due(userId: string, dueBefore: number, limit: number): Promise<DueLink[]> {
    return this.q.due.all(userId, dueBefore, limit);
  }

  async record(userId: string, owner: string, results: readonly LinkCheckResult[], now: number, day: number): Promise<number> {
    return this.db.transaction(() => {
      if (this.q.holds.get(userId, owner) === undefined) return 0;
      for (const r of results) this.q.write.run({ ...r, userId, now });
      this.q.count.run({ userId, owner, day, n: results.length });
      return results.length;
    })();
  }

  async requestCheck(userId: string, ids: string[]): Promise<BulkChange> {
    return this.db.transaction(() => {
      const rows = this.q.owned.all({ userId, ids: JSON.stringify(ids) });
      requireFound(ids, rows);
      refuseTrashed(rows);
      return { ids, changed: this.q.makeDue.run({ userId, ids: JSON.stringify(ids) }).changes };
    })();
  }

  async counts(userId: string): Promise<LinkStatusCount[]> {
    return this.q.counts.all(userId);
  }
}
