import type Database from 'better-sqlite3';
import type { Db } from '../../db/database.ts';
import type { Query, SqlValue } from '../../smart-folders/steps.ts';

type Statement = Database.Statement<SqlValue[], unknown>;

const MAX_CACHED = 256;

/**
 * Prepared statements for SQL whose text depends on a folder's rules: the
 * same rules shape reuses its statement instead of compiling it per request.
 */
export class StatementCache {
  private cache = new Map<string, Statement>();

  constructor(readonly db: Db) {}

  /** Every row of the query. */
  all(query: Query): unknown[] {
    return this.get(query.sql).all(...query.params);
  }

  private get(sql: string): Statement {
    let statement = this.cache.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<SqlValue[], unknown>(sql);
      // Shapes are few in practice; dropping the oldest keeps a pathological mix bounded.
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(sql, statement);
    }
    return statement;
  }
}
