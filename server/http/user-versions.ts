import { type Awaitable, thenOrNow } from '../awaitable.ts';

/** Users whose version is remembered at most: past that, it starts over (a flood of users costs a bounded amount). */
const REMEMBERED_USERS = 10_000;

interface Remembered {
  storeVersion: string;
  userVersion: string;
}

/**
 * Each user's data version (Store.userVersion) as of a store version (Store.version): read once per
 * user while the store's version stays, since no user's data can change without moving the store's.
 * On PostgreSQL, where reading it is a round trip, a cached read then costs none of its own until
 * some write commits somewhere.
 *
 * Read after the store version it is remembered for, the user's version is at least as new as that:
 * a request handed it never misses a write that committed before the request came in.
 */
export class UserVersions {
  private remembered = new Map<string, Remembered>();

  constructor(private read: (userId: string) => Awaitable<string>) {}

  of(userId: string, storeVersion: string): Awaitable<string> {
    const known = this.remembered.get(userId);
    if (known?.storeVersion === storeVersion) return known.userVersion;
    return thenOrNow(this.read(userId), (userVersion) => {
      if (this.remembered.size >= REMEMBERED_USERS) this.remembered.clear();
      this.remembered.set(userId, { storeVersion, userVersion });
      return userVersion;
    });
  }
}
