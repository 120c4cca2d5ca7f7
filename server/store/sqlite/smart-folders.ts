import type { Evaluation, SmartFolder } from '../../../lib/api/smart-folders.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import { Evaluator } from '../../smart-folders/evaluate.ts';
import { runSync } from '../../smart-folders/steps.ts';
import { FOLDER_COLUMNS, type FolderRow, evaluatedFolder, newCursorKey, patched, toFolder } from '../shared/smart-folder-rows.ts';
import type { NewSmartFolder, SmartFolderPatch, SmartFoldersStore } from '../smart-folders.ts';
import { SQLITE_EVALUATION } from './smart-folder-sql.ts';
import { StatementCache } from './statement-cache.ts';

export class SqliteSmartFolders implements SmartFoldersStore {
  private q;
  private evaluator = new Evaluator(SQLITE_EVALUATION);
  private statements: StatementCache;

  constructor(private db: Db) {
    this.q = {
      list: db.prepare<[string], FolderRow>(
        `SELECT ${FOLDER_COLUMNS} FROM smart_folders WHERE user_id = ? ORDER BY name COLLATE NOCASE, seq`,
      ),
      get: db.prepare<[string, string], FolderRow>(`SELECT ${FOLDER_COLUMNS} FROM smart_folders WHERE id = ? AND user_id = ?`),
      insert: db.prepare<[string, string, string, string, string, string, string, number]>(
        `INSERT INTO smart_folders (id, user_id, name, icon, color, rules, cursor_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      update: db.prepare<[string, string, string, string, number, number]>(
        'UPDATE smart_folders SET name = ?, icon = ?, color = ?, rules = ?, rules_version = ? WHERE seq = ?',
      ),
      remove: db.prepare<[string, string]>('DELETE FROM smart_folders WHERE id = ? AND user_id = ?'),
    };
    this.statements = new StatementCache(db);
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
      this.q.insert.run(id, userId, input.name, input.icon ?? '', input.color ?? '', JSON.stringify(input.rules), newCursorKey(), now);
      return toFolder(this.q.get.get(id, userId)!);
    })();
  }

  async update(userId: string, id: string, patch: SmartFolderPatch): Promise<SmartFolder | null> {
    return this.db.transaction(() => {
      const row = this.q.get.get(id, userId);
      if (!row) return null;
      const next = patched(row, patch);
      this.q.update.run(next.name, next.icon, next.color, next.rules, next.rules_version, row.seq);
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
      return runSync(this.evaluator.page(userId, evaluatedFolder(row), cursor), (query) => this.statements.all(query));
    })();
  }
}
