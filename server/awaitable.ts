/**
 * A value that some implementations have at once and others only later: the
 * in-memory limits and SQLite answer synchronously, Redis and PostgreSQL do not. On
 * the request path every `async` layer costs a promise and a microtask turn whether
 * or not it waits, so the synchronous ones hand their answer back as it is.
 */
export type Awaitable<T> = T | Promise<T>;

/** `f` of the value: at once when it is there, when it comes when it is a promise. */
export const thenOrNow = <T, U>(value: Awaitable<T>, f: (v: T) => Awaitable<U>): Awaitable<U> =>
  value instanceof Promise ? value.then(f) : f(value);
