import { type FormEvent, useMemo, useState } from 'react';
import type { Tag } from '../../../lib/api/tags.ts';
import { colorDot } from '../../../lib/dom/shown-values.ts';
import { toClientError } from '../../../lib/client/errors.ts';
import { dangerButtonClass, inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from '../../field-styles.ts';
import { Dialog } from '../../Dialog.tsx';
import { SectionError } from '../SectionError.tsx';
import { subtreeOf } from '../tree-rows.ts';
import type { useTagChanges } from './changes.ts';
import { bookmarkCount, plural } from '../count.ts';

interface Props {
  tag: Tag;
  tags: readonly Tag[];
  canWrite: boolean;
  changes: ReturnType<typeof useTagChanges>;
  onGone(): void;
}

/** The chosen tag: rename (its child tags follow), merge into another (a tag without children only), delete. */
export function TagDetails({ tag, tags, canWrite, changes, onGone }: Props) {
  const [newName, setNewName] = useState(tag.name);
  const [open, setOpen] = useState<'merge' | 'delete' | null>(null);
  const descendants = subtreeOf(tags, tag.id).slice(1);
  const dot = colorDot(tag.color);
  const error = changes.rename.error ?? changes.merge.error ?? changes.remove.error;

  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (newName.trim() && newName.trim() !== tag.name) changes.rename.mutate({ tag, newName: newName.trim() });
  };

  return (
    <section aria-label={`Tag ${tag.name}`} className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <h3 className="flex items-center gap-2 text-base font-semibold">
        {dot && <span aria-hidden="true" className="inline-block size-3 rounded-full" style={dot} />}
        {tag.name}
      </h3>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {bookmarkCount(tag.count)}
        {descendants.length > 0 && `; ${plural(descendants.length, 'child tag', 'child tags')}`}. {tag.color ? `Colour ${tag.color}.` : 'No colour.'} A tag’s colour is chosen when the tag is created and cannot be changed afterwards.
      </p>
      {error && <SectionError error={toClientError(error)} />}
      {canWrite && (
        <>
          <form onSubmit={rename} className="flex flex-wrap items-end gap-2">
            <label className="flex-1 space-y-1">
              <span className={labelClass}>Name (renames it on every bookmark{descendants.length > 0 && ', and its child tags'})</span>
              <input className={inputClass} maxLength={100} value={newName} onChange={(e) => setNewName(e.target.value)} />
            </label>
            <button type="submit" className={primaryButtonClass} disabled={changes.rename.isPending || !newName.trim() || newName.trim() === tag.name}>
              Rename
            </button>
          </form>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className={secondaryButtonClass} disabled={descendants.length > 0} aria-describedby={descendants.length > 0 ? `merge-why-${tag.id}` : undefined} onClick={() => setOpen('merge')}>
              Merge into…
            </button>
            <button type="button" className={dangerButtonClass} onClick={() => setOpen('delete')}>
              Delete…
            </button>
          </div>
          {descendants.length > 0 && (
            <p id={`merge-why-${tag.id}`} className="text-sm text-zinc-700 dark:text-zinc-300">
              Only a tag without child tags can be merged into another: merge or delete its child tags first.
            </p>
          )}
        </>
      )}
      {open === 'merge' && (
        <MergeDialog
          source={tag}
          tags={tags}
          onMerge={(target) => {
            setOpen(null);
            changes.merge.mutate({ source: tag, target }, { onSuccess: onGone });
          }}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'delete' && (
        <Dialog title={`Delete the tag “${tag.name}”?`} onClose={() => setOpen(null)}>
          <p>
            {tag.count === 0 ? 'No bookmark carries it.' : `${plural(tag.count, 'bookmark loses', 'bookmarks lose')} it; the bookmarks themselves stay.`}
            {descendants.length > 0 &&
              ` Its ${plural(descendants.length, 'child tag goes', 'child tags go')} too (${descendants.map((d) => d.name).slice(0, 5).join(', ')}${descendants.length > 5 ? '…' : ''}), carried by ${plural(descendants.reduce((s, d) => s + d.count, 0), 'bookmark', 'bookmarks')}.`}{' '}
            This cannot be undone.
          </p>
          <div className="flex justify-end gap-2">
            <button type="button" className={secondaryButtonClass} onClick={() => setOpen(null)}>
              Cancel
            </button>
            <button
              type="button"
              className={dangerButtonClass}
              onClick={() => {
                setOpen(null);
                changes.remove.mutate(tag, { onSuccess: onGone });
              }}
            >
              Delete tag
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

/** The tags `source` can merge into: any other tag (the source itself has no children, or merge is not offered). */
function MergeDialog({ source, tags, onMerge, onClose }: { source: Tag; tags: readonly Tag[]; onMerge(target: Tag): void; onClose(): void }) {
  const [query, setQuery] = useState('');
  const [targetId, setTargetId] = useState('');
  const candidates = useMemo(() => {
    const q = query.trim().toLowerCase();
    return tags.filter((t) => t.id !== source.id && t.name.toLowerCase().includes(q));
  }, [tags, source.id, query]);
  // The choice is one of the tags listed, or none: a tag the filter hides is not merged into unseen.
  const target = candidates.find((t) => t.id === targetId);

  return (
    <Dialog title={`Merge “${source.name}” into…`} onClose={onClose}>
      <p className="text-sm">
        Its {bookmarkCount(source.count)} get the tag you choose, then “{source.name}” is deleted.
      </p>
      <label className="block space-y-1">
        <span className={labelClass}>Filter tags</span>
        <input className={inputClass} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </label>
      <label className="block space-y-1">
        <span className={labelClass}>Merge into</span>
        <select className={inputClass} size={8} value={target?.id ?? ''} onChange={(e) => setTargetId(e.target.value)}>
          {/* Stands for "none chosen": without it React marks the first tag chosen while the state holds none. */}
          <option value="" disabled hidden />
          {candidates.slice(0, 500).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({bookmarkCount(t.count)})
            </option>
          ))}
        </select>
      </label>
      {candidates.length > 500 && <p className="text-sm">The first 500 of {candidates.length} tags are listed: filter to find the others.</p>}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButtonClass} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={primaryButtonClass} disabled={!target} onClick={() => target && onMerge(target)}>
          Merge
        </button>
      </div>
    </Dialog>
  );
}
