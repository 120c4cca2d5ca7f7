import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { focusRing } from '../field-styles.ts';
import { BookmarkRow, type RowAction } from './BookmarkRow.tsx';
import type { SelectMode } from './selection.ts';
import { type Selection, select, selectAll } from './selection.ts';

const ROW_HEIGHT = 76;
/** How close to the end (in rows) the next page is asked for. */
const PREFETCH_ROWS = 20;
/** Rows kept in the page beyond each edge of the view: each is DOM to build when a fast scroll brings in new rows. */
const OVERSCAN = 4;
/** The size assumed before the panel is measured: the first rows paint in the first frame. */
const INITIAL_RECT = { width: 360, height: 640 };

export interface BookmarkListProps {
  label: string;
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
  const { bookmarks, hasMore, loadingMore, loadMore, selection, onSelectionChange } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: bookmarks.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: OVERSCAN, initialRect: INITIAL_RECT });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
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
        {items.map((item) => {
          const b = bookmarks[item.index]!;
          return (
            <li
              key={b.id}
              aria-setsize={hasMore ? -1 : bookmarks.length}
              aria-posinset={item.index + 1}
              className="absolute left-0 top-0 w-full"
              style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
            >
              <BookmarkRow bookmark={b} selected={selection.ids.has(b.id)} current={props.isCurrent(b)} onSelect={onSelect} onOpen={onOpen} onAction={onAction} />
            </li>
          );
        })}
      </ul>
      {loadingMore && (
        <p role="status" className="p-2 text-center text-xs text-zinc-500">
          Loading more…
        </p>
      )}
    </div>
  );
}
