/**
 * Serialized answers of read endpoints, per user and validated request, each user's
 * kept for one version of that user's data (Store.userVersion). A write moves only
 * the writer's version, and the first request of that user that sees the new version
 * drops the user's entries: an answer is never served stale, answers nobody can be
 * served again do not stay in memory, and another user's answers stay served.
 *
 * Bounded twice, keys included: in accounted bytes and in entries; the least
 * recently used entries go first, whoever's they are.
 */

export interface ResponseCacheLimits {
  maxBytes: number;
  maxEntries: number;
}

export interface ResponseCacheUsage {
  entries: number;
  /** Keys (two bytes a character, as V8 may store them), bodies and a fixed cost per entry. */
  bytes: number;
}

/** Lookups since the cache was made: answered from it, and not. */
export interface ResponseCacheCounts {
  hits: number;
  misses: number;
}

/** What the Map slot and the key's string header cost beside the characters and the body. */
export const ENTRY_OVERHEAD_BYTES = 128;

export const DEFAULT_RESPONSE_CACHE_LIMITS: ResponseCacheLimits = { maxBytes: 32 * 1024 * 1024, maxEntries: 2_000 };

/** One user's entries, all of one version of the user's data. */
interface UserEntries {
  userId: string;
  version: string;
  keys: Set<string>;
}

/** An answer's bytes, in the parts it was made in (shared with whoever else holds them: never written to). */
export type CachedBody = readonly Uint8Array[];

interface Entry {
  user: UserEntries;
  body: CachedBody;
}

export class ResponseCache {
  private entries = new Map<string, Entry>();
  private users = new Map<string, UserEntries>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  /** The key last set or moved to the end: a page asked for again and again is not moved every time. */
  private newest: string | undefined;

  constructor(private limits: ResponseCacheLimits = DEFAULT_RESPONSE_CACHE_LIMITS) {}

  /** `key` is one of `userId`'s; `version`, the user's data version as the request found it. */
  get(userId: string, key: string, version: string): CachedBody | undefined {
    const entry = this.holds(userId, version) ? this.entries.get(key) : undefined;
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry); // most recently used again
      this.newest = key;
    }
    return entry.body;
  }

  set(userId: string, key: string, version: string, body: CachedBody): void {
    const cost = entryCost(key, body);
    // One answer may not push out most of the others; a quarter of the default budget still holds the whole
    // GET /collections of an account at the 10,000-collection cap (4.5 MB with the longest names), which
    // rebuilt on every request held other users' requests for hundreds of milliseconds.
    if (cost > this.limits.maxBytes / 4) return;
    this.holds(userId, version);
    this.remove(key);
    let user = this.users.get(userId);
    if (user === undefined) this.users.set(userId, (user = { userId, version, keys: new Set() }));
    user.keys.add(key);
    this.entries.set(key, { user, body });
    this.newest = key;
    this.bytes += cost;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.limits.maxBytes && this.entries.size <= this.limits.maxEntries) break;
      this.remove(oldest);
    }
  }

  usage(): ResponseCacheUsage {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  counts(): ResponseCacheCounts {
    return { hits: this.hits, misses: this.misses };
  }

  /** Whether the user's entries are of this version; if not, they go: a user's versions only move on, so they would never be served again. */
  private holds(userId: string, version: string): boolean {
    const user = this.users.get(userId);
    if (user === undefined) return false;
    if (user.version === version) return true;
    for (const key of user.keys) this.remove(key);
    return false;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entryCost(key, entry.body);
    const { user } = entry;
    user.keys.delete(key);
    if (user.keys.size === 0) this.users.delete(user.userId);
  }
}

function entryCost(key: string, body: CachedBody): number {
  let cost = 2 * key.length + ENTRY_OVERHEAD_BYTES;
  for (const part of body) cost += part.byteLength;
  return cost;
}
