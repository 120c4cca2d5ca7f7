import { useMemo, useState } from 'react';
import { inputClass, labelClass } from '../field-styles.ts';
import { TreeView } from './TreeView.tsx';
import { type TreeItem, toggled, visibleRows } from './tree-rows.ts';

interface Props<T extends TreeItem> {
  /** The tree's name, plural ("Collections"), and one item's, singular ("collection"). */
  label: string;
  noun: string;
  /** Undefined while they load. */
  items: readonly T[] | undefined;
  selectedId: string | null;
  onSelect(id: string): void;
  detail(item: T): string;
  onDrop?: (source: string, target: string) => void;
}

/** A section's tree with its filter box: matches shown with their ancestors, and a word when nothing is there. */
export function FilteredTree<T extends TreeItem>({ label, noun, items, ...tree }: Props<T>) {
  const [query, setQuery] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => visibleRows(items ?? [], collapsed, query), [items, collapsed, query]);

  return (
    <>
      <label className="block space-y-1">
        <span className={labelClass}>Filter {label.toLowerCase()}</span>
        <input className={inputClass} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </label>
      {items === undefined && <p role="status">Loading {label.toLowerCase()}…</p>}
      {items !== undefined && rows.length === 0 && <p role="status">{query.trim() ? `No ${noun} matches “${query.trim()}”.` : `No ${label.toLowerCase()} yet.`}</p>}
      <TreeView label={label} rows={rows} onToggle={(id, expanded) => setCollapsed((now) => toggled(now, id, expanded))} {...tree} />
    </>
  );
}
