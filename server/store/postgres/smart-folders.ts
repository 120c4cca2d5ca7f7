import type { Evaluation, SmartFolder } from '../../../lib/api/smart-folders.ts';
import type { Pg } from '../../db/postgres/pg.ts';
import { newId } from '../../ids.ts';
import { Evaluator } from '../../smart-folders/evaluate.ts';
import { runAsync } from '../../smart-folders/steps.ts';
import { FOLDER_COLUMNS, type FolderRow, evaluatedFolder, newCursorKey, patched, toFolder } from '../shared/smart-folder-rows.ts';
import type { NewSmartFolder, SmartFolderPatch, SmartFoldersStore } from '../smart-folders.ts';
import { POSTGRES_EVALUATION, numbered } from './smart-folder-sql.ts';

const GET = `SELECT ${FOLDER_COLUMNS} FROM smart_folders WHERE id = $1 AND user_id = $2`;

export class PgSmartFolders implements SmartFoldersStore {
  private evaluator = new Evaluator(POSTGRES_EVALUATION);

  constructor(private db: Pg) {}

  async list(userId: string): Promise<SmartFolder[]> {
    // lower() under COLLATE "C" folds ASCII only, as SQLite's NOCASE does.
    const rows = await this.db.all<FolderRow>(
      `SELECT ${FOLDER_COLUMNS} FROM smart_folders WHERE user_id = $1 ORDER BY lower(name), seq`,
      [userId],
    );
    return rows.map(toFolder);
  }

  async get(userId: string, id: string): Promise<SmartFolder | null> {
    const row = await this.db.get<FolderRow>(GET, [id, userId]);
    return row ? toFolder(row) : null;
  }

  async create(userId: string, input: NewSmartFolder, now: number): Promise<SmartFolder> {
    // One statement: nothing is read before it is written.
    const row = await this.db.get<FolderRow>(
      `INSERT INTO smart_folders (id, user_id, name, icon, color, rules, cursor_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${FOLDER_COLUMNS}`,
      [newId('sf'), userId, input.name, input.icon ?? '', input.color ?? '', JSON.stringify(input.rules), newCursorKey(), now],
    );
    return toFolder(row!);
  }

  async update(userId: string, id: string, patch: SmartFolderPatch): Promise<SmartFolder | null> {
    return this.db.transaction(
      async (tx) => {
        const row = await tx.get<FolderRow>(GET, [id, userId]);
        if (!row) return null;
        const next = patched(row, patch);
        const updated = await tx.get<FolderRow>(
          `UPDATE smart_folders SET name = $1, icon = $2, color = $3, rules = $4, rules_version = $5 WHERE seq = $6
           RETURNING ${FOLDER_COLUMNS}`,
          [next.name, next.icon, next.color, next.rules, next.rules_version, row.seq],
        );
        return toFolder(updated!);
      },
      { lock: `user:${userId}` },
    );
  }

  async remove(userId: string, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM smart_folders WHERE id = $1 AND user_id = $2', [id, userId])) > 0;
  }

  async evaluate(userId: string, id: string, cursor: string | undefined): Promise<Evaluation | null> {
    return this.db.transaction(async (tx) => {
      // One snapshot for every statement, as SQLite's read transaction gives: the scan and the read of its matches see the same data.
      await tx.run('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const row = await tx.get<FolderRow>(GET, [id, userId]);
      if (!row) return null;
      return runAsync(this.evaluator.page(userId, evaluatedFolder(row), cursor), (query) =>
        tx.all(numbered(query.sql), query.params),
      );
    });
  }
}
