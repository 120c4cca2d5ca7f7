// PLACEHOLDER: replaced by the collections module.
export interface CollectionsStore {
  readonly kind: 'collections';
}
