import pg from 'pg';
import { BackendUnavailable } from '../../backend-unavailable.ts';

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
    return (await reached(this.pool.query(text, storable(params)))).rowCount ?? 0;
  }

  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: Sql) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const client = await reached(this.pool.connect());
    // pg-pool stops hearing a client's errors while it is checked out: a connection the database cuts
    // between two statements (a restart) would emit one unheard, and crash the process. The statement
    // under way, or the next one, fails with it anyway (503).
    let cut: Error | undefined;
    const onCut = (err: Error) => (cut = err);
    client.on('error', onCut);
    try {
      await client.query('BEGIN');
      if (options.lock !== undefined) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [options.lock]);
      const result = await fn(new ConnectionSql(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw lostConnection(err) ? new BackendUnavailable('PostgreSQL', err) : err;
    } finally {
      client.removeListener('error', onCut);
      // A cut connection is destroyed, not handed to the next request.
      client.release(cut);
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
    return (await reached(this.client.query(text, storable(params)))).rowCount ?? 0;
  }
}

async function rowsOf<R extends Row>(on: pg.Pool | pg.PoolClient, text: string, params: readonly unknown[]): Promise<R[]> {
  return (await reached(on.query(text, storable(params)))).rows as R[];
}

/** Node's errors for a connection refused, cut or timed out. */
const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether the error says the database could not be reached, rather than that a statement
 * was refused: a network error, SQLSTATE class 08 (connection exception) or 57P0x (the
 * server shutting down or starting up), or pg's own words for a cut or a wait that timed out.
 */
function lostConnection(err: unknown): boolean {
  if (err instanceof BackendUnavailable) return true;
  if (!(err instanceof Error)) return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (NETWORK_ERRORS.has(code) || code.startsWith('08') || /^57P0[1-4]$/.test(code)) return true;
  return /^Connection terminated|^timeout exceeded when trying to connect|Client has encountered a connection error/.test(err.message);
}

/** The statement's answer, or BackendUnavailable when the database could not be reached. */
async function reached<T>(statement: Promise<T>): Promise<T> {
  try {
    return await statement;
  } catch (err) {
    throw lostConnection(err) ? new BackendUnavailable('PostgreSQL', err) : err;
  }
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
