/** "1 child tag", "3 child tags". */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A tag's or collection's count as the trees and dialogs say it. */
export const bookmarkCount = (n: number) => plural(n, 'bookmark', 'bookmarks');
