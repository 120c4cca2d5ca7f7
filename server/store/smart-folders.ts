import type { z } from 'zod';
import type { CreateSmartFolderBody, Evaluation, PatchSmartFolderBody, SmartFolder } from '../../lib/api/smart-folders.ts';

export type NewSmartFolder = z.output<typeof CreateSmartFolderBody>;
export type SmartFolderPatch = z.output<typeof PatchSmartFolderBody>;

/**
 * Smart-folder definitions and their on-demand evaluation. Another user's
 * folder is answered like a missing one (null).
 */
export interface SmartFoldersStore {
  /** The user's folders ordered by name. */
  list(userId: string): Promise<SmartFolder[]>;
  get(userId: string, id: string): Promise<SmartFolder | null>;
  create(userId: string, input: NewSmartFolder, now: number): Promise<SmartFolder>;
  /** A change of rules invalidates the folder's exact-tag cursors. */
  update(userId: string, id: string, patch: SmartFolderPatch): Promise<SmartFolder | null>;
  /** Removes the definition only; bookmarks are untouched. */
  remove(userId: string, id: string): Promise<boolean>;
  /**
   * One page of the folder's active bookmarks. Throws VALIDATION_ERROR for a
   * malformed or forged cursor and SMART_FOLDER_CURSOR_INVALID for an exact-tag
   * cursor issued before the rules changed.
   */
  evaluate(userId: string, id: string, cursor: string | undefined): Promise<Evaluation | null>;
}
