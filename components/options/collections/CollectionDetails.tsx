import { type FormEvent, useState } from 'react';
import type { Collection } from '../../../lib/api/collections.ts';
import { toClientError } from '../../../lib/client/errors.ts';
import { dangerButtonClass, inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from '../../field-styles.ts';
import { collectionPath } from '../../collection-tree.ts';
import { SectionError } from '../SectionError.tsx';
import type { useCollectionChanges } from './changes.ts';
import { DeleteCollectionDialog } from './DeleteCollectionDialog.tsx';
import { MoveCollectionDialog } from './MoveCollectionDialog.tsx';
import { ShareControl } from './ShareControl.tsx';
import { emptyIfStill } from '../../sent-field.ts';

interface Props {
  collection: Collection;
  collections: readonly Collection[];
  canWrite: boolean;
  changes: ReturnType<typeof useCollectionChanges>;
  onSelect(id: string | null): void;
}

type Open = 'move' | 'delete' | null;

/** The chosen collection: its name, icon, colour and notes, sharing, and the way to move, nest under or delete it. */
export function CollectionDetails({ collection, collections, canWrite, changes, onSelect }: Props) {
  const [form, setForm] = useState({ name: collection.name, icon: collection.icon, color: collection.color, notes: collection.notes });
  const [childName, setChildName] = useState('');
  const [open, setOpen] = useState<Open>(null);
  const path = collectionPath(collections, collection.id) ?? collection.name;

  const save = (event: FormEvent) => {
    event.preventDefault();
    const patch = Object.fromEntries(Object.entries(form).filter(([k, v]) => collection[k as keyof typeof form] !== v));
    if (Object.keys(patch).length > 0) changes.update.mutate({ id: collection.id, patch });
  };
  const createChild = (event: FormEvent) => {
    event.preventDefault();
    if (childName.trim()) changes.create.mutate({ name: childName.trim(), parentId: collection.id }, { onSuccess: () => emptyIfStill(setChildName, childName) });
  };
  const field = (key: keyof typeof form) => ({ value: form[key], disabled: !canWrite, onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value }) });

  return (
    <section aria-label={`Collection ${collection.name}`} className="space-y-4 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <h3 className="text-base font-semibold">{path}</h3>
      <form onSubmit={save} className="space-y-2">
          <label className="block space-y-1">
            <span className={labelClass}>Name</span>
            <input className={inputClass} maxLength={200} required {...field('name')} />
          </label>
          <div className="flex flex-wrap gap-2">
            <label className="block flex-1 space-y-1">
              <span className={labelClass}>Icon or emoji</span>
              <input className={inputClass} maxLength={64} {...field('icon')} />
            </label>
            <label className="block flex-1 space-y-1">
              <span className={labelClass}>Colour</span>
              <input className={inputClass} maxLength={32} placeholder="#2563eb" {...field('color')} />
            </label>
          </div>
          <label className="block space-y-1">
            <span className={labelClass}>Notes</span>
            <textarea className={inputClass} rows={3} maxLength={10_000} {...field('notes')} />
          </label>
          {canWrite && (
            <button type="submit" className={primaryButtonClass} disabled={changes.update.isPending}>
              Save
            </button>
          )}
      </form>

      {canWrite && (
        <>
          <form onSubmit={createChild} className="flex flex-wrap items-end gap-2">
            <label className="flex-1 space-y-1">
              <span className={labelClass}>New collection inside “{collection.name}”</span>
              <input className={inputClass} maxLength={200} value={childName} onChange={(e) => setChildName(e.target.value)} />
            </label>
            <button type="submit" className={secondaryButtonClass} disabled={!childName.trim()}>
              Create inside
            </button>
          </form>
          <div className="flex flex-wrap gap-2">
            <button type="button" className={secondaryButtonClass} onClick={() => setOpen('move')}>
              Move to…
            </button>
            <button type="button" className={dangerButtonClass} onClick={() => setOpen('delete')}>
              Delete…
            </button>
          </div>
        </>
      )}
      <ShareControl collection={collection} canWrite={canWrite} />
      {changes.trash.error && open === null && <SectionError error={toClientError(changes.trash.error)} />}

      {open === 'move' && (
        <MoveCollectionDialog
          collection={collection}
          collections={collections}
          onMove={(parentId) => {
            setOpen(null);
            changes.update.mutate({ id: collection.id, patch: { parentId } });
          }}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'delete' && (
        <DeleteCollectionDialog
          collection={collection}
          collections={collections}
          changes={changes}
          onDeleted={() => {
            setOpen(null);
            onSelect(collection.parentId);
          }}
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  );
}
