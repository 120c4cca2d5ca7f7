import type Database from 'better-sqlite3';
import type { Db } from '../db/database.ts';

export type SqlValue = string | number | null;
export type Statement<R> = Database.Statement<SqlValue[], R>;

const MAX_CACHED = 256;

/**
 * Prepared statements for SQL whose text depends on a folder's rules: the
 * same rules shape reuses its statement instead of compiling it per request.
 */
export class StatementCache {
  private cache = new Map<string, Statement<unknown>>();

  constructor(readonly db: Db) {}

  get<R>(sql: string): Statement<R> {
    let statement = this.cache.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<SqlValue[], unknown>(sql);
      // Shapes are few in practice; dropping the oldest keeps a pathological mix bounded.
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(sql, statement);
    }
    return statement as Statement<R>;
  }
}
