import type { Pg } from '../../db/postgres/pg.ts';
import type { BlocksStore } from '../blocks.ts';

export class PgBlocks implements BlocksStore {
  constructor(private db: Pg) {}

  async block(key: string, until: number): Promise<void> {
    await this.db.run('INSERT INTO ip_blocks (key, until) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET until = excluded.until', [key, until]);
  }

  async blockedUntil(key: string, now: number): Promise<number | null> {
    return (await this.db.get<{ until: number }>('SELECT until FROM ip_blocks WHERE key = $1 AND until > $2', [key, now]))?.until ?? null;
  }

  async unblock(key: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM ip_blocks WHERE key = $1', [key])) > 0;
  }

  async list(now: number): Promise<Array<{ key: string; until: number }>> {
    return this.db.all<{ key: string; until: number }>('SELECT key, until FROM ip_blocks WHERE until > $1 ORDER BY until, key', [now]);
  }

  async purgeEnded(now: number): Promise<number> {
    return this.db.run('DELETE FROM ip_blocks WHERE until <= $1', [now]);
  }
}
