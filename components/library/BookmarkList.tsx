import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { LibraryView } from '../../lib/storage/library-items.ts';
import { focusRing } from '../field-styles.ts';
import { BookmarkCard } from './BookmarkCard.tsx';
import { BookmarkRow, type RowAction } from './BookmarkRow.tsx';
import type { SelectMode } from './selection.ts';
import { type Selection, select, selectAll } from './selection.ts';

/** How a list draws its bookmarks: the side panel's rows, or one of the library page's three views. */
export type ListView = 'rows' | LibraryView;

/** Each view's item height and narrowest item (several a line where the width allows; Infinity: one a line). */
const GEOMETRY: Record<ListView, { height: number; minWidth: number }> = {
  rows: { height: 76, minWidth: Infinity },
  list: { height: 36, minWidth: Infinity },
  cards: { height: 288, minWidth: 240 },
  grid: { height: 168, minWidth: 200 },
};
/** How close to the end (in rows) the next page is asked for. */
const PREFETCH_ROWS = 20;
/** Rows kept in the page beyond each edge of the view: each is DOM to build when a fast scroll brings in new rows. */
const OVERSCAN = 4;
/** The size assumed before the panel is measured: the first rows paint in the first frame. */
const INITIAL_RECT = { width: 360, height: 640 };

export interface BookmarkListProps {
  label: string;
  /** 'rows' when not given. */
  view?: ListView;
  bookmarks: readonly Bookmark[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  selection: Selection;
  onSelectionChange(selection: Selection): void;
  /** Whether a bookmark is the current tab's page. */
  isCurrent(bookmark: Bookmark): boolean;
  onOpen(bookmark: Bookmark, inNewTab: boolean): void;
  onAction(action: RowAction, bookmark: Bookmark): void;
}

/**
 * A bookmark list of any length: only the rows in view are in the page
 * (10,000 scroll as smoothly as 10), and the next page is asked for as the
 * user nears the end. Ctrl/Cmd-A selects every loaded row.
 */
export function BookmarkList(props: BookmarkListProps) {
  const { bookmarks, hasMore, loadingMore, loadMore, selection, onSelectionChange, view = 'rows' } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { height, minWidth } = GEOMETRY[view];
  const columns = Math.max(1, Math.floor(useWidth(scrollRef) / minWidth));
  // Virtualised by lines: a line of the cards or the grid holds `columns` bookmarks.
  const lines = Math.ceil(bookmarks.length / columns);
  const virtualizer = useVirtualizer({ count: lines, getScrollElement: () => scrollRef.current, estimateSize: () => height, overscan: OVERSCAN, initialRect: INITIAL_RECT });
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, height]);
  const items = virtualizer.getVirtualItems();
  const last = ((items.at(-1)?.index ?? -1) + 1) * columns - 1;
  // Only when a selection needs it: a render while scrolling 10,000 rows does not walk them all.
  const orderOf = () => bookmarks.map((b) => b.id);
  // The rows' handlers stay the same from render to render, so that a row re-renders only when its own bookmark or state changes.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const onSelect = useCallback((b: Bookmark, mode: SelectMode) => {
    const { selection: now, bookmarks: shown, onSelectionChange: change } = latest.current;
    change(select(now, shown.map((x) => x.id), b.id, mode));
  }, []);
  const onOpen = useCallback((b: Bookmark, inNewTab: boolean) => latest.current.onOpen(b, inNewTab), []);
  const onAction = useCallback((action: RowAction, b: Bookmark) => latest.current.onAction(action, b), []);

  useEffect(() => {
    if (hasMore && !loadingMore && last >= bookmarks.length - PREFETCH_ROWS) loadMore();
  }, [hasMore, loadingMore, last, bookmarks.length, loadMore]);

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      onSelectionChange(selectAll(orderOf()));
    } else if (event.key === 'Escape' && selection.ids.size > 0) {
      onSelectionChange({ ids: new Set(), anchor: null });
    }
  };

  return (
    <div
      ref={scrollRef}
      role="region"
      aria-label={props.label}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className={`min-h-0 flex-1 overflow-y-auto ${focusRing}`}
    >
      <ul className="relative" style={{ height: virtualizer.getTotalSize() }} aria-label={props.label}>
        {items.flatMap((line) =>
          bookmarks.slice(line.index * columns, (line.index + 1) * columns).map((b, column) => {
            const index = line.index * columns + column;
            const itemProps = { bookmark: b, selected: selection.ids.has(b.id), current: props.isCurrent(b), onSelect, onOpen, onAction };
            return (
              <li
                key={b.id}
                aria-setsize={hasMore ? -1 : bookmarks.length}
                aria-posinset={index + 1}
                className={`absolute top-0 ${columns > 1 ? 'p-1.5' : ''}`}
                style={{ height, left: `${(column * 100) / columns}%`, width: `${100 / columns}%`, transform: `translateY(${line.start}px)` }}
              >
                {view === 'rows' || view === 'list' ? <BookmarkRow {...itemProps} dense={view === 'list'} /> : <BookmarkCard {...itemProps} tile={view === 'grid'} />}
              </li>
            );
          }),
        )}
      </ul>
      {loadingMore && (
        <p role="status" className="p-2 text-center text-xs text-zinc-500">
          Loading more…
        </p>
      )}
    </div>
  );
}

/** The scroll box's width, followed as the window resizes: how many cards fit a line. */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(INITIAL_RECT.width);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth || INITIAL_RECT.width);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth || INITIAL_RECT.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
