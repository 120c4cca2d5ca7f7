/**
 * Serialized answers of read endpoints, per user and validated request, all kept
 * for one store version. Any write anywhere moves the version, and the first
 * request that sees the new version drops every entry: an answer is never served
 * stale, and answers nobody can be served again do not stay in memory.
 *
 * Bounded twice, keys included: in accounted bytes and in entries; the least
 * recently used entries go first.
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

/** What the Map slot and the key's string header cost beside the characters and the body. */
export const ENTRY_OVERHEAD_BYTES = 128;

export const DEFAULT_RESPONSE_CACHE_LIMITS: ResponseCacheLimits = { maxBytes: 32 * 1024 * 1024, maxEntries: 2_000 };

export class ResponseCache {
  private entries = new Map<string, Buffer>();
  private version: string | undefined;
  private bytes = 0;
  /** The key last set or moved to the end: a page asked for again and again is not moved every time. */
  private newest: string | undefined;

  constructor(private limits: ResponseCacheLimits = DEFAULT_RESPONSE_CACHE_LIMITS) {}

  get(key: string, version: string): Buffer | undefined {
    if (!this.holds(version)) return undefined;
    const body = this.entries.get(key);
    if (body === undefined) return undefined;
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, body); // most recently used again
      this.newest = key;
    }
    return body;
  }

  set(key: string, version: string, body: Buffer): void {
    const cost = entryCost(key, body);
    // One answer may not push out most of the others; a quarter of the default budget still holds the whole
    // GET /collections of an account at the 10,000-collection cap (4.5 MB with the longest names), which
    // rebuilt on every request held other users' requests for hundreds of milliseconds.
    if (cost > this.limits.maxBytes / 4) return;
    this.holds(version);
    this.remove(key);
    this.entries.set(key, body);
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

  /** Whether the entries are of this version; if not, they go: versions only move on, so they would never be served again. */
  private holds(version: string): boolean {
    if (version === this.version) return true;
    this.entries.clear();
    this.bytes = 0;
    this.version = version;
    return false;
  }

  private remove(key: string): void {
    const body = this.entries.get(key);
    if (body === undefined) return;
    this.entries.delete(key);
    this.bytes -= entryCost(key, body);
  }
}

const entryCost = (key: string, body: Buffer): number => 2 * key.length + body.byteLength + ENTRY_OVERHEAD_BYTES;
