import { randomBytes } from 'node:crypto';
import { type Evaluation, Rules, type SmartFolder } from '../../../lib/api/smart-folders.ts';
import { iso } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import { Evaluator } from '../../smart-folders/evaluate.ts';
import { StatementCache } from '../../smart-folders/statements.ts';
import type { NewSmartFolder, SmartFolderPatch, SmartFoldersStore } from '../smart-folders.ts';

interface FolderRow {
  seq: number;
  id: string;
  name: string;
  icon: string;
  color: string;
  rules: string;
  rules_version: number;
  cursor_key: string;
  created_at: number;
}

const COLUMNS = 'seq, id, name, icon, color, rules, rules_version, cursor_key, created_at';

const toFolder = (r: FolderRow): SmartFolder => ({
  id: r.id,
  name: r.name,
  icon: r.icon,
  color: r.color,
  rules: parseRules(r.rules),
  createdAt: iso(r.created_at),
});

const parseRules = (json: string): Rules => Rules.parse(JSON.parse(json));

export class SqliteSmartFolders implements SmartFoldersStore {
  private q;
  private evaluator: Evaluator;

  constructor(private db: Db) {
    this.q = {
      list: db.prepare<[string], FolderRow>(
        `SELECT ${COLUMNS} FROM smart_folders WHERE user_id = ? ORDER BY name COLLATE NOCASE, seq`,
      ),
      get: db.prepare<[string, string], FolderRow>(`SELECT ${COLUMNS} FROM smart_folders WHERE id = ? AND user_id = ?`),
      insert: db.prepare<[string, string, string, string, string, string, string, number]>(
        `INSERT INTO smart_folders (id, user_id, name, icon, color, rules, cursor_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      update: db.prepare<[string, string, string, string, number, number]>(
        'UPDATE smart_folders SET name = ?, icon = ?, color = ?, rules = ?, rules_version = ? WHERE seq = ?',
      ),
      remove: db.prepare<[string, string]>('DELETE FROM smart_folders WHERE id = ? AND user_id = ?'),
    };
    this.evaluator = new Evaluator(new StatementCache(db));
  }

  async list(userId: string): Promise<SmartFolder[]> {
    return this.q.list.all(userId).map(toFolder);
  }

  async get(userId: string, id: string): Promise<SmartFolder | null> {
    const row = this.q.get.get(id, userId);
    return row ? toFolder(row) : null;
  }

  async create(userId: string, input: NewSmartFolder, now: number): Promise<SmartFolder> {
    const id = newId('sf');
    return this.db.transaction(() => {
      const key = randomBytes(32).toString('hex');
      this.q.insert.run(id, userId, input.name, input.icon ?? '', input.color ?? '', JSON.stringify(input.rules), key, now);
      return toFolder(this.q.get.get(id, userId)!);
    })();
  }

  async update(userId: string, id: string, patch: SmartFolderPatch): Promise<SmartFolder | null> {
    return this.db.transaction(() => {
      const row = this.q.get.get(id, userId);
      if (!row) return null;
      const rules = patch.rules === undefined ? row.rules : JSON.stringify(patch.rules);
      // Only a real change of rules retires the folder's exact-tag cursors.
      const version = rules === row.rules ? row.rules_version : row.rules_version + 1;
      this.q.update.run(patch.name ?? row.name, patch.icon ?? row.icon, patch.color ?? row.color, rules, version, row.seq);
      return toFolder(this.q.get.get(id, userId)!);
    })();
  }

  async remove(userId: string, id: string): Promise<boolean> {
    return this.q.remove.run(id, userId).changes > 0;
  }

  async evaluate(userId: string, id: string, cursor: string | undefined): Promise<Evaluation | null> {
    // One read transaction: the scan and the read of its matches see the same data.
    return this.db.transaction(() => {
      const row = this.q.get.get(id, userId);
      if (!row) return null;
      const folder = { rules: parseRules(row.rules), rulesVersion: row.rules_version, cursorKey: row.cursor_key };
      return this.evaluator.page(userId, folder, cursor);
    })();
  }
}
