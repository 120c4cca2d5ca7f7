import type { Db } from '../../db/database.ts';
import type { BlocksStore } from '../blocks.ts';

/** Addresses whose block state is remembered for a version; more is a flood of new addresses, and it starts over. */
const REMEMBERED_KEYS_LIMIT = 10_000;

export class SqliteBlocks implements BlocksStore {
  private q;
  /** Each key's stored block end (null: no row), as read at `rememberedAt`. */
  private remembered = new Map<string, number | null>();
  private rememberedAt: string | undefined;

  /**
   * `version`: the store's version (see trackVersion). Given, the server's check on
   * every request reads a key's row once per version instead of once per request:
   * any write here moves the version at once and another connection's commit (the
   * admin command's lift) from the next turn on, as it does for every other read.
   */
  constructor(
    db: Db,
    private version?: () => string,
  ) {
    this.q = {
      block: db.prepare<[string, number]>(
        'INSERT INTO ip_blocks (key, until) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET until = excluded.until',
      ),
      until: db.prepare<[string], number>('SELECT until FROM ip_blocks WHERE key = ?').pluck(),
      unblock: db.prepare<[string]>('DELETE FROM ip_blocks WHERE key = ?'),
      list: db.prepare<[number], { key: string; until: number }>('SELECT key, until FROM ip_blocks WHERE until > ? ORDER BY until, key'),
      purge: db.prepare<[number]>('DELETE FROM ip_blocks WHERE until <= ?'),
    };
  }

  async block(key: string, until: number): Promise<void> {
    this.q.block.run(key, until);
  }

  blockedUntil(key: string, now: number): number | null {
    const until = this.storedUntil(key);
    return until !== null && until > now ? until : null;
  }

  async unblock(key: string): Promise<boolean> {
    return this.q.unblock.run(key).changes > 0;
  }

  async list(now: number): Promise<Array<{ key: string; until: number }>> {
    return this.q.list.all(now);
  }

  async purgeEnded(now: number): Promise<number> {
    return this.q.purge.run(now).changes;
  }

  private storedUntil(key: string): number | null {
    if (this.version === undefined) return this.q.until.get(key) ?? null;
    const version = this.version();
    if (version !== this.rememberedAt || this.remembered.size >= REMEMBERED_KEYS_LIMIT) {
      this.remembered.clear();
      this.rememberedAt = version;
    }
    let until = this.remembered.get(key);
    if (until === undefined) {
      until = this.q.until.get(key) ?? null;
      this.remembered.set(key, until);
    }
    return until;
  }
}
