import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { collectionNameProblem } from '../lib/api/collection-name.ts';
import type { Collection } from '../lib/api/collections.ts';
import { type ClientError, toClientError } from '../lib/client/errors.ts';
import { UNSORTED, collectionPath, treeRows } from './collection-tree.ts';
import { ErrorAlert } from './ErrorAlert.tsx';
import { focusRing, inputClass, labelClass, optionClass, pickerButtonClass, popupListClass, quietButtonClass, secondaryButtonClass } from './field-styles.ts';

export interface CollectionPickerProps {
  /** The chosen collection's id; null is Unsorted. */
  value: string | null;
  onChange(id: string | null): void;
  /** The user's collections, null while they load. */
  collections: readonly Collection[] | null;
  /** Creates a collection, which the picker then chooses; rejects with the reason it failed. */
  onCreate(input: { name: string; parentId: string | null }): Promise<Collection>;
}

/**
 * A button showing the chosen collection that opens the collections as an
 * indented tree with a search field (arrow keys move, Enter chooses, Escape
 * closes) and a "New collection…" form.
 */
export function CollectionPicker({ value, onChange, collections, onCreate }: CollectionPickerProps) {
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [creating, setCreating] = useState(false);

  const rows = treeRows(collections ?? [], query);
  const current = Math.min(active, rows.length - 1);
  const rowId = (i: number) => `${id}-row-${i}`;
  const chosenName = value === null ? UNSORTED : ((collections && collectionPath(collections, value)) ?? (collections ? 'Unknown collection' : 'Loading…'));

  useEffect(() => {
    if (open) document.getElementById(rowId(current))?.scrollIntoView?.({ block: 'nearest' });
  });

  const show = () => {
    const all = treeRows(collections ?? [], '');
    setQuery('');
    setActive(Math.max(0, all.findIndex((r) => (r.collection?.id ?? null) === value)));
    setCreating(false);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    setCreating(false);
    if (refocus) buttonRef.current?.focus();
  };
  const choose = (collectionId: string | null) => {
    onChange(collectionId);
    close(true);
  };

  const onSearch = (text: string) => {
    setQuery(text);
    setActive(Math.max(0, treeRows(collections ?? [], text).findIndex((r) => r.match)));
  };

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = rows.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (n > 0) setActive(e.key === 'ArrowDown' ? (current + 1) % n : current <= 0 ? n - 1 : current - 1);
    } else if (e.key === 'Enter' && !(e.ctrlKey || e.metaKey)) {
      e.preventDefault(); // not the form's submit
      const row = rows[current];
      if (row) choose(row.collection?.id ?? null);
      else if (query.trim() !== '') setCreating(true);
    } else if (e.key === 'Escape') {
      e.preventDefault(); // closes the picker, not the popup
      close(true);
    }
  };

  // Checked after the focus has settled: a control that unmounts (the "New collection…" button) blurs
  // with no related target although the focus is about to move to the name field, inside.
  const onBlur = () => {
    setTimeout(() => {
      if (!rootRef.current?.contains(document.activeElement)) setOpen(false);
    });
  };

  return (
    <div ref={rootRef} onBlur={onBlur}>
      <span id={`${id}-label`} className={labelClass}>
        Collection
      </span>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={`Collection: ${chosenName}`}
        onClick={() => (open ? close(false) : show())}
        onKeyDown={(e) => {
          if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !open) {
            e.preventDefault();
            show();
          }
        }}
        className={`mt-1 ${pickerButtonClass}`}
      >
        <span className="truncate">{chosenName}</span>
        <span aria-hidden="true" className="text-zinc-500">
          ▾
        </span>
      </button>

      {open && (
        <div role="dialog" aria-label="Choose a collection" className="mt-1 space-y-1.5 rounded-md border border-zinc-200 p-1.5 dark:border-zinc-700">
          <input
            ref={searchRef}
            role="combobox"
            aria-label="Search collections"
            aria-expanded={rows.length > 0}
            aria-controls={`${id}-tree`}
            aria-autocomplete="list"
            aria-activedescendant={rows.length > 0 ? rowId(current) : undefined}
            autoComplete="off"
            autoFocus={!creating}
            placeholder="Search collections"
            value={query}
            onChange={(e) => onSearch(e.target.value)}
            onKeyDown={onSearchKey}
            className={inputClass}
          />
          <ul id={`${id}-tree`} role="tree" aria-label="Collections" hidden={rows.length === 0} className={popupListClass}>
            {rows.map((row, i) => {
              const rowValue = row.collection?.id ?? null;
              return (
                <li
                  key={rowValue ?? ''}
                  id={rowId(i)}
                  role="treeitem"
                  aria-level={row.depth + 1}
                  aria-selected={rowValue === value}
                  onMouseDown={(e) => e.preventDefault()} // keep focus in the search field
                  onClick={() => choose(rowValue)}
                  style={{ paddingLeft: `${0.625 + row.depth * 0.875}rem` }}
                  className={`${optionClass(i === current)} ${row.match || i === current ? '' : 'opacity-60'}`}
                >
                  <span className="truncate">{row.collection?.name ?? UNSORTED}</span>
                  {rowValue === value && (
                    <span aria-hidden="true" className="ml-auto">
                      ✓
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
          {collections === null && <p className="px-1 text-xs text-zinc-500 dark:text-zinc-400">Loading collections…</p>}
          {collections !== null && rows.length === 0 && (
            <p className="px-1 text-xs text-zinc-600 dark:text-zinc-400">No collection matches “{query.trim()}”.</p>
          )}
          {creating ? (
            <NewCollection
              initialName={query.trim()}
              parent={value === null ? null : { id: value, name: chosenName }}
              onCreate={onCreate}
              onCreated={(c) => choose(c.id)}
              onCancel={() => {
                searchRef.current?.focus(); // before the form goes, so that the focus stays in the picker
                setCreating(false);
              }}
            />
          ) : (
            <button type="button" onClick={() => setCreating(true)} className={quietButtonClass}>
              New collection…
            </button>
          )}
        </div>
      )}
    </div>
  );
}

interface NewCollectionProps {
  initialName: string;
  /** The chosen collection, offered as the new one's parent. */
  parent: { id: string; name: string } | null;
  onCreate: CollectionPickerProps['onCreate'];
  onCreated(collection: Collection): void;
  onCancel(): void;
}

/** Name and optional parent of a new collection; not a <form>, as it sits inside the popup's form. */
function NewCollection({ initialName, parent, onCreate, onCreated, onCancel }: NewCollectionProps) {
  const id = useId();
  const [name, setName] = useState(initialName);
  const [inside, setInside] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ClientError | null>(null);
  /** Said before anything is sent: the name the API would refuse. */
  const [problem, setProblem] = useState<string | null>(null);

  const create = async () => {
    if (busy) return;
    setError(null);
    const found = collectionNameProblem(name);
    setProblem(found);
    if (found !== null) return;
    setBusy(true);
    try {
      onCreated(await onCreate({ name: name.trim(), parentId: inside && parent ? parent.id : null }));
    } catch (err) {
      setError(toClientError(err));
      setBusy(false);
    }
  };

  return (
    <div role="group" aria-label="New collection" className="space-y-1.5 rounded-md bg-zinc-50 p-1.5 dark:bg-zinc-800/50">
      <label htmlFor={`${id}-name`} className={labelClass}>
        New collection name
      </label>
      <input
        id={`${id}-name`}
        autoFocus
        value={name}
        aria-invalid={problem !== null}
        aria-describedby={problem === null ? undefined : `${id}-problem`}
        onChange={(e) => {
          setName(e.target.value);
          setProblem(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !(e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void create();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onCancel();
          }
        }}
        className={inputClass}
      />
      {parent && (
        <label className="flex items-center gap-2 text-xs text-zinc-700 dark:text-zinc-300">
          <input type="checkbox" checked={inside} onChange={(e) => setInside(e.target.checked)} className={`size-3.5 accent-blue-600 ${focusRing}`} />
          Inside “{parent.name}”
        </label>
      )}
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-xs font-medium text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      {error && <ErrorAlert error={error} />}
      <div className="flex justify-end gap-1.5">
        <button type="button" onClick={onCancel} className={quietButtonClass}>
          Cancel
        </button>
        <button type="button" onClick={() => void create()} disabled={busy} className={secondaryButtonClass}>
          {busy ? 'Creating…' : 'Create'}
        </button>
      </div>
    </div>
  );
}
