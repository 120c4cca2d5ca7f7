import { z } from 'zod';
import { type DateRange, microsToMs } from '../dates.ts';
import type { ParsedImport } from '../types.ts';
import { type TreeNode, type TreeRoot, parseJson, readBookmarkTree } from './browser-json.ts';

const CONTAINER = 'text/x-moz-place-container';
const PLACE = 'text/x-moz-place';
const SEPARATOR = 'text/x-moz-place-separator';

const Container = z.object({
  type: z.literal(CONTAINER),
  title: z.string().default(''),
  root: z.string().optional(),
  children: z.array(z.unknown()).default([]),
});
const Place = z.object({
  type: z.literal(PLACE),
  uri: z.string(),
  title: z.string().default(''),
  dateAdded: z.number().optional(),
  tags: z.string().default(''),
  annos: z.array(z.object({ name: z.string(), value: z.unknown() })).default([]),
});
const Separator = z.object({ type: z.literal(SEPARATOR) });
const Node = z.discriminatedUnion('type', [Container, Place, Separator]);

const DESCRIPTION_ANNO = 'bookmarkProperties/description';

/**
 * Where the content of each Firefox root goes: what Firefox's own HTML export does (the
 * menu's content at the top level, the others as folders of these names). The tags root
 * of older backups repeats every tagged bookmark, whose own `tags` field already says it.
 */
const ROOTS = new Map<string, string[] | null>([
  ['bookmarksMenuFolder', []],
  ['toolbarFolder', ['Bookmarks Toolbar']],
  ['unfiledBookmarksFolder', ['Other Bookmarks']],
  ['mobileFolder', ['Mobile Bookmarks']],
  ['tagsFolder', null],
]);

/**
 * Firefox's bookmark backup (Bookmarks > Manage > Backup, and the profile's
 * bookmarkbackups/): a tree of `text/x-moz-place-container` (folders), `text/x-moz-place`
 * (bookmarks: uri, title, dateAdded in microseconds since the epoch, tags comma-separated,
 * the description in an annotation) and `text/x-moz-place-separator` (skipped). The top
 * node is `placesRoot`; its children are the roots (see ROOTS), each a collection only when
 * it holds something. `place:` queries are skipped for their scheme, as in every format.
 */
export function parseFirefoxJson(text: string, range: DateRange): ParsedImport {
  const top = Container.safeParse(parseJson(text));
  const roots: TreeRoot[] = [];
  const loose: unknown[] = [];
  for (const raw of top.success ? top.data.children : []) {
    const root = Container.safeParse(raw);
    if (!root.success || root.data.root === undefined) {
      loose.push(raw);
      continue;
    }
    const path = ROOTS.has(root.data.root) ? ROOTS.get(root.data.root) : [root.data.title.trim() || root.data.root];
    if (path && root.data.children.length > 0) roots.push({ path, children: root.data.children });
  }
  if (loose.length > 0) roots.push({ path: [], children: loose });
  return readBookmarkTree('firefox-json', roots, readNode, range);
}

function readNode(raw: unknown): TreeNode {
  const node = Node.safeParse(raw);
  if (!node.success) return { kind: 'unreadable' };
  const data = node.data;
  if (data.type === SEPARATOR) return { kind: 'ignored' };
  if (data.type === CONTAINER) return { kind: 'folder', name: data.title, children: data.children };
  const description = data.annos.find((anno) => anno.name === DESCRIPTION_ANNO)?.value;
  return {
    kind: 'bookmark',
    url: data.uri,
    title: data.title,
    description: typeof description === 'string' ? description : '',
    tags: data.tags.split(','),
    date: { field: 'dateAdded', value: data.dateAdded, toMs: microsToMs },
  };
}

/** A places container at the top: what every Firefox backup is. */
export function looksLikeFirefoxJson(value: unknown): boolean {
  return Container.safeParse(value).success;
}
