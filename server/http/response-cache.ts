/**
 * Serialized answers of read endpoints, per user and URL, each kept with the
 * store version it was computed at. An entry is used only while the version is
 * unchanged, so it can never be stale: any write anywhere invalidates it.
 * Bounded in bytes; the least recently used entries go first.
 */
export class ResponseCache {
  private entries = new Map<string, { version: string; json: string }>();
  private bytes = 0;

  constructor(private maxBytes: number) {}

  get(key: string, version: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.json.length;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used again
    return entry.json;
  }

  set(key: string, version: string, json: string): void {
    if (json.length > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) this.bytes -= old.json.length;
    this.entries.delete(key);
    this.entries.set(key, { version, json });
    this.bytes += json.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.json.length;
    }
  }
}
