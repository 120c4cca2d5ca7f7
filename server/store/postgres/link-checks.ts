import type { LinkStatusCount } from '../../../lib/api/bookmarks.ts';
import type { Pg } from '../../db/postgres/pg.ts';
import type { BulkChange } from '../bookmarks.ts';
import type { DueLink, LinkCheckResult, LinkChecksStore } from '../link-checks.ts';
import { DUE_USERS_SQL, FREE_LEASE } from '../shared/link-check-sql.ts';
import { refuseTrashed, requireFound } from '../shared/bookmark-results.ts';

/** The shared statement with its $names numbered in order of first use, and the values in that order. */
function numbered(sql: string, values: Record<string, unknown>): [string, unknown[]] {
  const names: string[] = [];
  const text = sql.replace(/\$([a-zA-Z]\w*)/g, (_, name: string) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return [text, names.map((name) => values[name])];
}

const SQL = {
  claim: `INSERT INTO link_check_users (user_id, lease_owner, lease_until) VALUES ($userId, $owner, $until)
          ON CONFLICT (user_id) DO UPDATE SET lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
          WHERE ${FREE_LEASE}`,
  due: `SELECT id, url FROM bookmarks
        WHERE user_id = $1 AND deleted_at IS NULL AND link_checked_at < $2 ORDER BY link_checked_at LIMIT $3`,
  // The row lock orders this writer after a claim or release of the same user by another instance.
  holds: 'SELECT 1 FROM link_check_users WHERE user_id = $1 AND lease_owner = $2 FOR UPDATE',
  write: `UPDATE bookmarks AS b SET link_status = r.link_status, http_status_code = r.code, last_checked_at = $2, link_checked_at = $2
          FROM unnest($3::text[], $4::text[], $5::int[]) AS r(id, link_status, code)
          WHERE b.id = r.id AND b.user_id = $1`,
  count: `UPDATE link_check_users SET checks = CASE WHEN day = $3 THEN checks + $4 ELSE $4 END, day = $3
          WHERE user_id = $1 AND lease_owner = $2`,
  owned: 'SELECT id, deleted_at FROM bookmarks WHERE user_id = $1 AND id = ANY($2::text[])',
  makeDue: 'UPDATE bookmarks SET link_checked_at = 0 WHERE user_id = $1 AND id = ANY($2::text[])',
  counts: `SELECT link_status AS "linkStatus", COUNT(*)::int AS count FROM bookmarks
           WHERE user_id = $1 AND deleted_at IS NULL GROUP BY link_status ORDER BY link_status`,
};

export class PgLinkChecks implements LinkChecksStore {
  constructor(private db: Pg) {}

  async candidates(dueBefore: number, at: number, day: number, cap: number, limit: number): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(...numbered(DUE_USERS_SQL, { dueBefore, at, day, cap, limit }));
    return rows.map((r) => r.id);
  }

  async claim(userId: string, owner: string, until: number, at: number): Promise<boolean> {
    // One statement: a second instance's claim of the same user waits for the row, then finds it held.
    return (await this.db.run(...numbered(SQL.claim, { userId, owner, until, at }))) === 1;
  }

  async renew(userId: string, owner: string, until: number): Promise<boolean> {
    return (await this.db.run('UPDATE link_check_users SET lease_until = $1 WHERE user_id = $2 AND lease_owner = $3', [until, userId, owner])) === 1;
  }

  async release(userId: string, owner: string): Promise<void> {
    // lease_until stays: it tells which user was worked for least recently (candidates' order).
    await this.db.run('UPDATE link_check_users SET lease_owner = NULL WHERE user_id = $1 AND lease_owner = $2', [userId, owner]);
  }

  async checksOn(userId: string, day: number): Promise<number> {
    const row = await this.db.get<{ checks: number; day: number }>('SELECT checks, day FROM link_check_users WHERE user_id = $1', [userId]);
    return row !== undefined && row.day === day ? row.checks : 0;
  }

  async due(userId: string, dueBefore: number, limit: number): Promise<DueLink[]> {
    return this.db.all<DueLink>(SQL.due, [userId, dueBefore, limit]);
  }

  async record(userId: string, owner: string, results: readonly LinkCheckResult[], now: number, day: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      if ((await tx.get(SQL.holds, [userId, owner])) === undefined) return 0;
      await tx.run(SQL.write, [
        userId, now, results.map((r) => r.id), results.map((r) => r.linkStatus), results.map((r) => r.httpStatusCode),
      ]);
      await tx.run(SQL.count, [userId, owner, day, results.length]);
      return results.length;
    });
  }

  async requestCheck(userId: string, ids: string[]): Promise<BulkChange> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.all<{ id: string; deleted_at: number | null }>(SQL.owned, [userId, ids]);
      requireFound(ids, rows);
      refuseTrashed(rows);
      return { ids, changed: await tx.run(SQL.makeDue, [userId, ids]) };
    });
  }

  async counts(userId: string): Promise<LinkStatusCount[]> {
    return this.db.all<LinkStatusCount & Record<string, unknown>>(SQL.counts, [userId]);
  }
}
