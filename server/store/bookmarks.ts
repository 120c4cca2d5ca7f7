// PLACEHOLDER: replaced by the bookmarks module.
export interface BookmarksStore {
  readonly kind: 'bookmarks';
}
