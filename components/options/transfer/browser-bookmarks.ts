/** The part of a browser bookmark node this reads (chrome.bookmarks' BookmarkTreeNode). */
export interface BrowserBookmarkNode {
  title: string;
  url?: string;
  /** Firefox's: a separator is a node too, with the url "data:". */
  type?: 'bookmark' | 'folder' | 'separator';
  dateAdded?: number;
  children?: BrowserBookmarkNode[];
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function write(node: BrowserBookmarkNode, indent: string, out: string[]): void {
  // A line in a menu, not an entry: sent, the server would report it as a skipped "data:" URL.
  if (node.type === 'separator') return;
  const added = node.dateAdded === undefined ? '' : ` ADD_DATE="${Math.floor(node.dateAdded / 1000)}"`;
  if (node.url !== undefined) {
    out.push(`${indent}<DT><A HREF="${escapeHtml(node.url)}"${added}>${escapeHtml(node.title)}</A>`);
    return;
  }
  out.push(`${indent}<DT><H3${added}>${escapeHtml(node.title)}</H3>`, `${indent}<DL><p>`);
  for (const child of node.children ?? []) write(child, `${indent}    `, out);
  out.push(`${indent}</DL><p>`);
}

/**
 * The browser's whole bookmark tree as one Netscape bookmark file, the format
 * every browser exports and the server reads: one import job for all of it,
 * each folder (the bar and "Other bookmarks" too) becoming a collection.
 */
export function toNetscapeHtml(tree: readonly BrowserBookmarkNode[]): string {
  const out = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">', '<TITLE>Bookmarks</TITLE>', '<H1>Bookmarks</H1>', '<DL><p>'];
  // The tree's root is a nameless node holding the browser's own folders.
  for (const root of tree) for (const child of root.children ?? []) write(child, '    ', out);
  out.push('</DL><p>');
  return `${out.join('\n')}\n`;
}

/** How many bookmarks (not folders) the tree holds. */
export const countBookmarks = (nodes: readonly BrowserBookmarkNode[]): number =>
  nodes.reduce((n, node) => n + (node.type === 'separator' ? 0 : node.url !== undefined ? 1 : countBookmarks(node.children ?? [])), 0);
