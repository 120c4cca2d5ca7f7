import type { Awaitable } from '../awaitable.ts';

/**
 * IP blocks, in the database so that the admin command can list and lift them
 * while the server runs. Keys are the LimitStore's (`block:<address>`).
 */
export interface BlocksStore {
  /** Blocks the key until `until`, replacing any block it had. */
  block(key: string, until: number): Promise<void>;
  /** When the key's block ends, or null when it has none in force at `now`. */
  blockedUntil(key: string, now: number): Awaitable<number | null>;
  /** Lifts the key's block; answers whether it had one (an ended one included). */
  unblock(key: string): Promise<boolean>;
  /** The blocks in force at `now`, soonest to end first. */
  list(now: number): Promise<Array<{ key: string; until: number }>>;
  /** Forgets blocks that ended before `now`; answers how many. */
  purgeEnded(now: number): Promise<number>;
}
