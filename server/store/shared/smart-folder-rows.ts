import { randomBytes } from 'node:crypto';
import { Rules, type SmartFolder } from '../../../lib/api/smart-folders.ts';
import { iso } from '../../clock.ts';
import type { EvaluatedFolder } from '../../smart-folders/evaluate.ts';
import type { SmartFolderPatch } from '../smart-folders.ts';

/** A smart_folders row as both backends read it. */
export type FolderRow = {
  seq: number;
  id: string;
  name: string;
  icon: string;
  color: string;
  rules: string;
  rules_version: number;
  cursor_key: string;
  created_at: number;
};

export const FOLDER_COLUMNS = 'seq, id, name, icon, color, rules, rules_version, cursor_key, created_at';

const parseRules = (json: string): Rules => Rules.parse(JSON.parse(json));

export const toFolder = (r: FolderRow): SmartFolder => ({
  id: r.id,
  name: r.name,
  icon: r.icon,
  color: r.color,
  rules: parseRules(r.rules),
  createdAt: iso(r.created_at),
});

export const evaluatedFolder = (r: FolderRow): EvaluatedFolder => ({
  rules: parseRules(r.rules),
  rulesVersion: r.rules_version,
  cursorKey: r.cursor_key,
});

/** A new folder's secret for signing its cursors. */
export const newCursorKey = (): string => randomBytes(32).toString('hex');

/** The columns a patch writes over the stored row. */
export function patched(row: FolderRow, patch: SmartFolderPatch): Pick<FolderRow, 'name' | 'icon' | 'color' | 'rules' | 'rules_version'> {
  const rules = patch.rules === undefined ? row.rules : JSON.stringify(patch.rules);
  return {
    name: patch.name ?? row.name,
    icon: patch.icon ?? row.icon,
    color: patch.color ?? row.color,
    rules,
    // Only a real change of rules retires the folder's exact-tag cursors.
    rules_version: rules === row.rules ? row.rules_version : row.rules_version + 1,
  };
}
