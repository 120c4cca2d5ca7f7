import type { Tag } from '../../../lib/api/tags.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';
import { subtreeOf } from '../tree-rows.ts';
import { useChange } from '../use-change.ts';

/** The name `name` gets when its ancestor `from` is renamed `to`. */
const renamed = (name: string, from: string, to: string) =>
  name.toLowerCase() === from.toLowerCase() ? to : name.toLowerCase().startsWith(`${from.toLowerCase()}/`) ? `${to}${name.slice(from.length)}` : name;

/** The Tags section's changes, each shown at once in the tree and rolled back if refused. */
export function useTagChanges() {
  const create = useChange({ key: keys.tags, run: (input: { name: string; color?: string }) => sendLibrary('createTag', input) });
  const rename = useChange<{ tag: Tag; newName: string }, Tag, Tag[]>({
    key: keys.tags,
    run: ({ tag, newName }) => sendLibrary('renameTag', { id: tag.id, newName }),
    // The tag and its descendants (the server renames them too).
    optimistic: (list, { tag, newName }) => list.map((t) => ({ ...t, name: renamed(t.name, tag.name, newName) })),
  });
  const remove = useChange<Tag, unknown, Tag[]>({
    key: keys.tags,
    run: (tag) => sendLibrary('deleteTag', { id: tag.id }),
    optimistic: (list, tag) => {
      const gone = new Set(subtreeOf(list, tag.id).map((t) => t.id));
      return list.filter((t) => !gone.has(t.id));
    },
  });
  const merge = useChange<{ source: Tag; target: Tag }, unknown, Tag[]>({
    key: keys.tags,
    run: ({ source, target }) => sendLibrary('mergeTags', { sourceTagId: source.id, targetTagId: target.id }),
    optimistic: (list, { source }) => list.filter((t) => t.id !== source.id),
  });
  return { create, rename, remove, merge };
}
