import { z } from 'zod';
import { type DateRange, chromiumToMs } from '../dates.ts';
import type { ParsedImport } from '../types.ts';
import { type TreeNode, type TreeRoot, parseJson, readBookmarkTree } from './browser-json.ts';

const Folder = z.object({ type: z.literal('folder'), name: z.string().default(''), children: z.array(z.unknown()).default([]) });
const Url = z.object({ type: z.literal('url'), url: z.string(), name: z.string().default(''), date_added: z.string().optional() });
const Node = z.discriminatedUnion('type', [Folder, Url]);
const Profile = z.object({ roots: z.record(z.string(), z.unknown()) });

/** The roots in the order Chromium shows them; a root it adds later comes after these. */
const ROOT_ORDER = ['bookmark_bar', 'other', 'synced'];
/** "Other bookmarks" is where the browser's HTML export puts its content: the top level. */
const TOP_LEVEL_ROOT = 'other';

/**
 * Chromium's (Chrome, Edge, Brave, Vivaldi...) profile `Bookmarks` file:
 * `{ roots: { bookmark_bar, other, synced }, version }`, each root a folder node, each
 * node `{ type: 'folder', name, children }` or `{ type: 'url', name, url, date_added }`.
 *
 * The result is the one the browser's own HTML export of the same bookmarks gives: the
 * bookmarks bar and the mobile bookmarks are collections of their name, the content of
 * "Other bookmarks" is at the top level, and a root with nothing in it is no collection
 * (every profile has all three). date_added is microseconds since 1601-01-01.
 */
export function parseChromiumJson(text: string, range: DateRange): ParsedImport {
  const profile = Profile.safeParse(parseJson(text));
  const roots: TreeRoot[] = [];
  const entries = Object.entries(profile.success ? profile.data.roots : {}).sort(([a], [b]) => rootRank(a) - rootRank(b));
  for (const [key, raw] of entries) {
    const root = Folder.safeParse(raw);
    if (!root.success || root.data.children.length === 0) continue;
    roots.push({ path: key === TOP_LEVEL_ROOT ? [] : [root.data.name.trim() || key], children: root.data.children });
  }
  return readBookmarkTree('chromium-json', roots, readNode, range);
}

const rootRank = (key: string): number => (ROOT_ORDER.includes(key) ? ROOT_ORDER.indexOf(key) : ROOT_ORDER.length);

function readNode(raw: unknown): TreeNode {
  const node = Node.safeParse(raw);
  if (!node.success) return { kind: 'unreadable' };
  if (node.data.type === 'folder') return { kind: 'folder', name: node.data.name, children: node.data.children };
  return {
    kind: 'bookmark',
    url: node.data.url,
    title: node.data.name,
    description: '',
    tags: [],
    date: { field: 'date_added', value: node.data.date_added, toMs: chromiumToMs },
  };
}

/** `roots` holding a bookmark_bar or other folder: what every Chromium profile file has. */
export function looksLikeChromiumJson(value: unknown): boolean {
  const profile = Profile.safeParse(value);
  return profile.success && ('bookmark_bar' in profile.data.roots || 'other' in profile.data.roots);
}
