import { useVirtualizer } from '@tanstack/react-virtual';
import { type DragEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { colorDot } from '../../lib/dom/shown-values.ts';
import { focusRing } from '../field-styles.ts';
import type { Row, TreeItem } from './tree-rows.ts';

const ROW_HEIGHT = 34;
/** The tree's box scrolls past this height. */
const MAX_HEIGHT = 448;
/**
 * happy-dom and the first render have no layout: the virtualiser starts from a
 * box of this size. As tall as the box of a long tree (its border aside), so that
 * the rows of the first render are those in view and its measurement renders
 * nothing again.
 */
const INITIAL_RECT = { width: 480, height: MAX_HEIGHT };
const DRAG_TYPE = 'application/x-shelf-tree-item';

interface Props<T extends TreeItem> {
  label: string;
  rows: readonly Row<T>[];
  selectedId: string | null;
  /** The selection follows the focus (a single-select tree, as ARIA describes it). */
  onSelect(id: string): void;
  onToggle(id: string, expanded: boolean): void;
  /** What a row shows after its label (counts); part of its accessible name. */
  detail(item: T): string;
  /** Given, rows can be dragged onto others: `source` is dropped on `target`. */
  onDrop?: (source: string, target: string) => void;
}

/**
 * The ARIA tree pattern over a virtualised list: only the rows in view are in
 * the page (1,000 collections or 2,000 tags scroll as 10), one row in the tab
 * order, arrow keys to move, Right/Left to open, close or go to the parent,
 * Home/End, and type-ahead left to the filter box beside it.
 */
export function TreeView<T extends TreeItem>({ label, rows, selectedId, onSelect, onToggle, detail, onDrop }: Props<T>) {
  const id = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10, initialRect: INITIAL_RECT });
  const selectedIndex = rows.findIndex((r) => r.item.id === selectedId);
  const tabIndexRow = selectedIndex >= 0 ? selectedIndex : 0;
  const rowId = (i: number) => `${id}-${i}`;

  useEffect(() => {
    if (focusIndex === null) return;
    document.getElementById(rowId(focusIndex))?.focus();
  });

  const moveTo = (i: number) => {
    const row = rows[i];
    if (!row) return;
    virtualizer.scrollToIndex(i, { align: 'auto' });
    setFocusIndex(i);
    onSelect(row.item.id);
  };

  const onKeyDown = (event: KeyboardEvent, i: number) => {
    const row = rows[i]!;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(i + 1),
      ArrowUp: () => moveTo(i - 1),
      Home: () => moveTo(0),
      End: () => moveTo(rows.length - 1),
      ArrowRight: () => (row.hasChildren && !row.expanded ? onToggle(row.item.id, true) : row.expanded && moveTo(i + 1)),
      ArrowLeft: () => {
        if (row.expanded) onToggle(row.item.id, false);
        else if (row.depth > 0) moveTo(rows.findLastIndex((r, j) => j < i && r.depth === row.depth - 1));
      },
    };
    const act = keys[event.key];
    if (!act) return;
    event.preventDefault();
    act();
  };

  const drag = onDrop && {
    onDragStart: (event: DragEvent, source: string) => event.dataTransfer.setData(DRAG_TYPE, source),
    onDragOver: (event: DragEvent, target: string) => {
      if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
      event.preventDefault();
      setDropTarget(target);
    },
    onDrop: (event: DragEvent, target: string) => {
      event.preventDefault();
      setDropTarget(null);
      const source = event.dataTransfer.getData(DRAG_TYPE);
      if (source && source !== target) onDrop(source, target);
    },
  };

  return (
    <div ref={scrollRef} style={{ maxHeight: MAX_HEIGHT }} className="min-h-0 overflow-y-auto rounded-md border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div role="tree" aria-label={label} className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index]!;
          const selected = row.item.id === selectedId;
          const text = detail(row.item);
          const dot = colorDot(row.item.color);
          return (
            <div
              key={row.item.id}
              id={rowId(v.index)}
              role="treeitem"
              aria-level={row.depth + 1}
              aria-posinset={row.position}
              aria-setsize={row.siblings}
              aria-expanded={row.hasChildren ? row.expanded : undefined}
              aria-selected={selected}
              tabIndex={v.index === tabIndexRow ? 0 : -1}
              draggable={drag !== undefined}
              onDragStart={drag && ((e) => drag.onDragStart(e, row.item.id))}
              onDragOver={drag && ((e) => drag.onDragOver(e, row.item.id))}
              onDragLeave={drag && (() => setDropTarget(null))}
              onDrop={drag && ((e) => drag.onDrop(e, row.item.id))}
              onClick={() => moveTo(v.index)}
              onFocus={() => {
                setFocusIndex(v.index);
                if (!selected) onSelect(row.item.id);
              }}
              onBlur={() => setFocusIndex(null)}
              onKeyDown={(e) => onKeyDown(e, v.index)}
              className={`absolute left-0 top-0 flex w-full cursor-pointer items-center gap-1 pr-2 text-sm ${focusRing} ${
                selected ? 'bg-blue-100 dark:bg-blue-950' : 'hover:bg-zinc-100 dark:hover:bg-zinc-800'
              } ${dropTarget === row.item.id ? 'outline-2 outline-dashed outline-blue-600' : ''} ${row.match ? '' : 'text-zinc-500 dark:text-zinc-400'}`}
              style={{ height: ROW_HEIGHT, transform: `translateY(${v.start}px)`, paddingLeft: `${0.5 + row.depth * 1}rem` }}
            >
              <Toggle row={row} onToggle={onToggle} />
              {dot && <span aria-hidden="true" className="inline-block size-2.5 shrink-0 rounded-full" style={dot} />}
              <span className="truncate">{row.item.label}</span>
              <span className="ml-auto shrink-0 text-xs text-zinc-600 dark:text-zinc-400">{text}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function Toggle<T extends TreeItem>({ row, onToggle }: { row: Row<T>; onToggle(id: string, expanded: boolean): void }): ReactNode {
  if (!row.hasChildren) return <span aria-hidden="true" className="inline-block w-4" />;
  return (
    <span
      aria-hidden="true"
      className="inline-block w-4 text-center text-zinc-500"
      onClick={(e) => {
        e.stopPropagation();
        onToggle(row.item.id, !row.expanded);
      }}
    >
      {row.expanded ? '▾' : '▸'}
    </span>
  );
}
