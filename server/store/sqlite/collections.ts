// PLACEHOLDER: replaced by the collections module.
import type { Db } from '../../db/database.ts';
import type { CollectionsStore } from '../collections.ts';

export class SqliteCollections implements CollectionsStore {
  readonly kind = 'collections';
  constructor(readonly db: Db) {}
}
