import { type FormEvent, useMemo, useState } from 'react';
import { toClientError } from '../../../lib/client/errors.ts';
import { inputClass, labelClass, primaryButtonClass } from '../../field-styles.ts';
import { useCollections, useOpeningCollections } from '../../library/queries.ts';
import { SectionError } from '../SectionError.tsx';
import { FilteredTree } from '../FilteredTree.tsx';
import { useScope } from '../use-scopes.ts';
import { useCollectionChanges } from './changes.ts';
import { asItem, moveTargets } from './collection-items.ts';
import { bookmarkCount } from '../count.ts';
import { CollectionDetails } from './CollectionDetails.tsx';
import { TrashedCollections } from './TrashedCollections.tsx';
import { emptyIfStill } from '../../sent-field.ts';

/** The Collections section: the tree with counts and a filter, the chosen collection's details, and the trashed ones. */
export function CollectionsSection() {
  const list = useCollections();
  const opening = useOpeningCollections();
  const canWrite = useScope('collections:write');
  const changes = useCollectionChanges();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [name, setName] = useState('');

  const collections = list.data ?? [];
  // Until the whole list is read, the tree the page opened with (the details wait for it).
  const items = useMemo(() => (list.data ?? opening)?.map(asItem), [list.data, opening]);
  const selected = collections.find((c) => c.id === selectedId) ?? null;

  const create = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    changes.create.mutate({ name: name.trim(), parentId: null }, { onSuccess: (c) => (emptyIfStill(setName, name), setSelectedId(c.id)) });
  };

  const drop = (source: string, target: string) => {
    if (moveTargets(collections, source).some((c) => c.id === target)) changes.update.mutate({ id: source, patch: { parentId: target } });
  };

  return (
    <div className="space-y-4">
      {list.error && <SectionError error={toClientError(list.error)} />}
      {canWrite ? (
        <form onSubmit={create} className="flex flex-wrap items-end gap-2">
          <label className="min-w-48 flex-1 space-y-1">
            <span className={labelClass}>New collection</span>
            <input className={inputClass} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit" className={primaryButtonClass} disabled={changes.create.isPending || !name.trim()}>
            Create
          </button>
        </form>
      ) : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          This token may read collections but not change them (it lacks the collections:write scope). Sign in with a token that has it to create, edit, move or delete collections.
        </p>
      )}
      {changes.create.error && <SectionError error={toClientError(changes.create.error)} />}
      {changes.update.error && <SectionError error={toClientError(changes.update.error)} />}
      <FilteredTree
        label="Collections"
        noun="collection"
        items={items}
        selectedId={selectedId}
        onSelect={setSelectedId}
        detail={(c) => bookmarkCount(c.bookmarkCount)}
        {...(canWrite && { onDrop: drop })}
      />
      {selected && <CollectionDetails key={selected.id} collection={selected} collections={collections} canWrite={canWrite} changes={changes} onSelect={setSelectedId} />}
      <TrashedCollections canWrite={canWrite} />
    </div>
  );
}
