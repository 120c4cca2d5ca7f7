import { type FormEvent, useMemo, useState } from 'react';
import type { Tag } from '../../../lib/api/tags.ts';
import { toClientError } from '../../../lib/client/errors.ts';
import { inputClass, labelClass, primaryButtonClass } from '../../field-styles.ts';
import { useTags } from '../../library/queries.ts';
import { SectionError } from '../SectionError.tsx';
import { FilteredTree } from '../FilteredTree.tsx';
import { useScope } from '../use-scopes.ts';
import { useTagChanges } from './changes.ts';
import { TagDetails } from './TagDetails.tsx';
import { bookmarkCount } from '../count.ts';
import { emptyIfStill } from '../../sent-field.ts';

export type TagItem = Tag & { label: string };

/** In the tree a tag shows the last part of its name: its ancestors are the rows above. */
const asItem = (t: Tag): TagItem => ({ ...t, label: t.name.slice(t.name.lastIndexOf('/') + 1) });

/** The Tags section: the hierarchy with counts and a filter, a new tag's form, and the chosen tag's details. */
export function TagsSection() {
  const list = useTags();
  const canWrite = useScope('tags:write');
  const changes = useTagChanges();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [color, setColor] = useState('');

  const tags = list.data ?? [];
  const items = useMemo(() => list.data?.map(asItem), [list.data]);
  const selected = tags.find((t) => t.id === selectedId) ?? null;

  const create = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    changes.create.mutate(
      { name: name.trim(), ...(color.trim() && { color: color.trim() }) },
      { onSuccess: (tag) => (emptyIfStill(setName, name), emptyIfStill(setColor, color), setSelectedId(tag.id)) },
    );
  };

  return (
    <div className="space-y-4">
      {list.error && <SectionError error={toClientError(list.error)} />}
      {canWrite ? (
        <form onSubmit={create} className="space-y-2">
          <div className="flex flex-wrap items-end gap-2">
            <label className="min-w-48 flex-1 space-y-1">
              <span className={labelClass}>New tag (a / nests it: work/clients)</span>
              <input className={inputClass} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
            </label>
            <label className="w-32 space-y-1">
              <span className={labelClass}>Colour</span>
              <input className={inputClass} value={color} maxLength={32} placeholder="#16a34a" onChange={(e) => setColor(e.target.value)} />
            </label>
            <button type="submit" className={primaryButtonClass} disabled={changes.create.isPending || !name.trim()}>
              Create tag
            </button>
          </div>
          {changes.create.error && <SectionError error={toClientError(changes.create.error)} />}
        </form>
      ) : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          This token may read tags but not change them (it lacks the tags:write scope). Sign in with a token that has it to create, rename, merge or delete tags.
        </p>
      )}
      <FilteredTree
        label="Tags"
        noun="tag"
        items={items}
        selectedId={selectedId}
        onSelect={setSelectedId}
        detail={(t) => bookmarkCount(t.count)}
      />
      {selected && <TagDetails key={selected.id} tag={selected} tags={tags} canWrite={canWrite} changes={changes} onGone={() => setSelectedId(null)} />}
    </div>
  );
}
