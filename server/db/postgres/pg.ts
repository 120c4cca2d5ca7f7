import pg from 'pg';

// BIGINT (times in ms, counts) and NUMERIC (what SUM of BIGINTs answers) as numbers, not strings:
// every value the store keeps is well within a double's exact integers.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);

/** A row as the statement names its columns. */
export type Row = object;

/** What the PostgreSQL stores run their statements on: the pool, or one transaction's connection. */
export interface Sql {
  /** Every row the statement answers. */
  all<R extends Row>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** The first row, or undefined. */
  get<R extends Row>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
  /** Runs the statement; answers how many rows it wrote (or read). */
  run(text: string, params?: readonly unknown[]): Promise<number>;
}

export interface TransactionOptions {
  /**
   * Writes that must not interleave with others on the same key (a user's library: positions,
   * caps, kept counts read then written) take a transaction-scoped advisory lock on it first,
   * which is what SQLite's one writer at a time gave them.
   */
  lock?: string;
}

/** A pool of connections to the database, with transactions on one connection at a time. */
export class Pg implements Sql {
  constructor(readonly pool: pg.Pool) {}

  all<R extends Row>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    return rowsOf<R>(this.pool, text, params);
  }

  async get<R extends Row>(text: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return (await rowsOf<R>(this.pool, text, params))[0];
  }

  async run(text: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.pool.query(text, storable(params))).rowCount ?? 0;
  }

  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: Sql) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      if (options.lock !== undefined) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [options.lock]);
      const result = await fn(new ConnectionSql(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** One transaction's connection. */
class ConnectionSql implements Sql {
  constructor(private client: pg.PoolClient) {}

  all<R extends Row>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    return rowsOf<R>(this.client, text, params);
  }

  async get<R extends Row>(text: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return (await rowsOf<R>(this.client, text, params))[0];
  }

  async run(text: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.client.query(text, storable(params))).rowCount ?? 0;
  }
}

async function rowsOf<R extends Row>(on: pg.Pool | pg.PoolClient, text: string, params: readonly unknown[]): Promise<R[]> {
  return (await on.query(text, storable(params))).rows as R[];
}

/**
 * PostgreSQL's text cannot hold U+0000, which SQLite's can and the API does not refuse: it
 * becomes U+FFFD, the replacement character, in every string parameter. A look-up by an id
 * holding one finds nothing, as it finds nothing on SQLite.
 */
function storable(params: readonly unknown[]): unknown[] {
  return params.map(function clean(value: unknown): unknown {
    if (typeof value === 'string') return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
    return Array.isArray(value) ? value.map(clean) : value;
  });
}
