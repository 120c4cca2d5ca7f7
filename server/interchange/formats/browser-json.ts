import { CollectionSet } from '../collections.ts';
import { type DateRange, readDate } from '../dates.ts';
import type { InterchangeBookmark, ParsedImport, SkippedEntry } from '../types.ts';
import { aboutUrl, checkUrl, childPath, cleanTags, newBookmark, skippedEntry } from '../values.ts';

/** One node of a browser's bookmark tree, as its format's reader understood it. */
export type TreeNode =
  | { kind: 'folder'; name: string; children: unknown[] }
  | {
      kind: 'bookmark';
      url: string;
      title: string;
      description: string;
      tags: string[];
      /** The date field's name (for a reason), its value, and its unit. */
      date: { field: string; value: string | number | undefined; toMs: (text: string) => number };
    }
  /** Not a bookmark and holding none: a separator. */
  | { kind: 'ignored' }
  | { kind: 'unreadable' };

/** A root of the tree: where its content goes ([] is the top level) and that content. */
export interface TreeRoot {
  path: string[];
  children: unknown[];
}

/**
 * Walks a browser's bookmark tree (Chromium's profile file, Firefox's backup) in file order:
 * folders become collections (kept when empty: they are the user's), bookmarks are checked
 * as in every format. The walk keeps its own stack, so a hostile depth cannot overflow it,
 * and folders deeper than MAX_FOLDER_LEVELS are their ancestor at that level.
 */
export function readBookmarkTree(
  format: ParsedImport['format'],
  roots: readonly TreeRoot[],
  readNode: (raw: unknown) => TreeNode,
  range: DateRange,
): ParsedImport {
  const bookmarks: InterchangeBookmark[] = [];
  const skipped: SkippedEntry[] = [];
  const collections = new CollectionSet();
  const stack: { path: string[]; raw: unknown }[] = [];
  const pushChildren = (path: string[], children: readonly unknown[]): void => {
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ path, raw: children[i] });
  };
  for (const root of [...roots].reverse()) pushChildren(root.path, root.children);
  for (const root of roots) collections.add(root.path);

  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const node = readNode(item.raw);
    if (node.kind === 'folder') {
      const path = childPath(item.path, node.name) ?? item.path;
      collections.add(path);
      pushChildren(path, node.children);
    } else if (node.kind === 'unreadable') {
      skipped.push({ reason: 'an entry of the bookmark tree is not a bookmark, folder or separator', group: 'unreadable entry' });
    } else if (node.kind === 'bookmark') {
      const url = checkUrl(node.url);
      if (!url.ok) {
        skipped.push(skippedEntry(url));
        continue;
      }
      const created = readDate(node.date.field, node.date.value, node.date.toMs, range);
      if (!created.ok) {
        skipped.push(skippedEntry(aboutUrl(url.url, created)));
        continue;
      }
      bookmarks.push(
        newBookmark(url.url, {
          title: node.title.trim(),
          description: node.description.trim(),
          tags: cleanTags(node.tags),
          collectionPath: item.path,
          createdAt: created.ms,
        }),
      );
    }
  }
  return { format, bookmarks, collections: collections.list(), skipped };
}

/** JSON text as a value; undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
