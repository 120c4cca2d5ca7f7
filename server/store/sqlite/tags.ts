// PLACEHOLDER: replaced by the tags module.
import type { Db } from '../../db/database.ts';
import type { TagsStore } from '../tags.ts';

export class SqliteTags implements TagsStore {
  readonly kind = 'tags';
  constructor(readonly db: Db) {}
}
