import type { Db } from '../../db/database.ts';

/**
 * Store.version for one connection: SQLite's data_version, which moves when
 * another connection commits (the admin command, another instance), and
 * total_changes, which counts this connection's own writes.
 *
 * Reading them is a read transaction with two file-lock system calls, and under
 * load most requests of one turn of the event loop want it: so it is read at most
 * once a turn. A write through this connection forgets that reading at once, so a
 * request always sees every write this process made before it; a commit by another
 * process shows from the next turn on, as if it had come a moment later.
 *
 * Must be called before any statement is prepared on `db`: it is told of writes by
 * the statements that make them.
 */
export function trackVersion(db: Db): () => string {
  const query = db.prepare<[], string>("SELECT data_version || '.' || total_changes() FROM pragma_data_version").pluck();
  let turnVersion: string | undefined;
  const forget = () => {
    turnVersion = undefined;
  };
  forgetOnWrites(db, forget);
  return () => {
    if (turnVersion === undefined) {
      turnVersion = query.get()!;
      setImmediate(forget);
    }
    return turnVersion;
  };
}

type Statement = ReturnType<Db['prepare']>;
const RUNS = ['run', 'get', 'all', 'iterate'] as const;

/** Every statement prepared from now on that may write calls `wrote` after it runs. */
function forgetOnWrites(db: Db, wrote: () => void): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement: Statement = prepare(source);
    if (statement.readonly) return statement;
    for (const name of RUNS) {
      const run = statement[name].bind(statement) as (...params: unknown[]) => unknown;
      Object.defineProperty(statement, name, {
        value: (...params: unknown[]) => {
          try {
            return run(...params);
          } finally {
            wrote();
          }
        },
      });
    }
    return statement;
  }) as Db['prepare'];
}
