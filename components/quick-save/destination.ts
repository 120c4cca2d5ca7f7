import type { Collection } from '../../lib/api/collections.ts';
import type { QuickSaveTarget } from '../../lib/storage/items.ts';
import { UNSORTED, collectionPath } from '../collection-tree.ts';

export type Destination =
  | { kind: 'named'; name: string }
  /** The chosen collection is not among the user's (deleted, trashed): quick saves go to Unsorted. */
  | { kind: 'gone' }
  | { kind: 'loading' };

/** Where a quick save goes, as the popup and the options page name it; null collections are still loading. */
export function quickSaveDestination(target: QuickSaveTarget, collections: readonly Collection[] | null): Destination {
  if (target.kind === 'unsorted') return { kind: 'named', name: UNSORTED };
  if (target.kind === 'last') return { kind: 'named', name: 'the last collection you saved to' };
  if (collections === null) return { kind: 'loading' };
  const name = collectionPath(collections, target.collectionId);
  return name === null ? { kind: 'gone' } : { kind: 'named', name };
}

/** The options page's section for it: options.html#quick-save. */
export const QUICK_SAVE_SECTION = 'quick-save';
