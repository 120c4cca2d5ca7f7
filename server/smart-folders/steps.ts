export type SqlValue = string | number | null;

/** One statement of an evaluation: SQL with `?` placeholders and its parameters in text order. */
export interface Query {
  sql: string;
  params: SqlValue[];
}

/**
 * The evaluation's logic is written once, as generators that yield the statements they need and
 * are resumed with their rows. A backend runs them: SQLite synchronously, inside the one read
 * transaction better-sqlite3 cannot hold across an await; PostgreSQL awaiting each statement on
 * its transaction's connection.
 */
export type Steps<T> = Generator<Query, T, unknown[]>;

/** Every row of one statement, typed as the caller reads it. */
export function* rows<R>(sql: string, params: SqlValue[]): Steps<R[]> {
  return (yield { sql, params }) as R[];
}

/** Runs the steps with a synchronous statement executor. */
export function runSync<T>(steps: Steps<T>, all: (query: Query) => unknown[]): T {
  let step = steps.next();
  while (!step.done) step = steps.next(all(step.value));
  return step.value;
}

/** Runs the steps with an asynchronous statement executor, one statement at a time. */
export async function runAsync<T>(steps: Steps<T>, all: (query: Query) => Promise<unknown[]>): Promise<T> {
  let step = steps.next();
  while (!step.done) step = steps.next(await all(step.value));
  return step.value;
}
