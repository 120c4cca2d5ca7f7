// PLACEHOLDER: replaced by the tags module.
export interface TagsStore {
  readonly kind: 'tags';
}
