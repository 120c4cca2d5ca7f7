import type { Db } from '../../db/database.ts';
import type { BlocksStore } from '../blocks.ts';

export class SqliteBlocks implements BlocksStore {
  private q;

  constructor(db: Db) {
    this.q = {
      block: db.prepare<[string, number]>(
        'INSERT INTO ip_blocks (key, until) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET until = excluded.until',
      ),
      until: db.prepare<[string, number], number>('SELECT until FROM ip_blocks WHERE key = ? AND until > ?').pluck(),
      unblock: db.prepare<[string]>('DELETE FROM ip_blocks WHERE key = ?'),
      list: db.prepare<[number], { key: string; until: number }>('SELECT key, until FROM ip_blocks WHERE until > ? ORDER BY until, key'),
      purge: db.prepare<[number]>('DELETE FROM ip_blocks WHERE until <= ?'),
    };
  }

  async block(key: string, until: number): Promise<void> {
    this.q.block.run(key, until);
  }

  async blockedUntil(key: string, now: number): Promise<number | null> {
    return this.q.until.get(key, now) ?? null;
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
}
