import { useVirtualizer } from '@tanstack/react-virtual';
import { type DragEvent, type KeyboardEvent, type RefObject, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { LibraryView } from '../../lib/storage/library-items.ts';
import { focusRing } from '../field-styles.ts';
import { BookmarkCard } from './BookmarkCard.tsx';
import { BookmarkRow, type BookmarkRowProps, type RowAction } from './BookmarkRow.tsx';
import { CoverBlock } from './cover-placeholder.tsx';
import { useDrawnFull, useFling } from './fling.ts';
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
/**
 * Bookmarks kept in the page beyond each edge of the view, counted in bookmarks rather than lines: each is DOM
 * to build and paint when a fast scroll brings in new lines, and four lines of a six-card grid was 48 cards
 * built every frame for none the user sees. At least one line, so that an arrow key's next line is drawn.
 */
const OVERSCAN_ITEMS = 4;
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
  /**
   * The keyboard's commands on the focused bookmark (the library page): e edits, Delete trashes, m moves,
   * t tags; the page applies them to the selection where the bookmark is in it. Without it, only Ctrl-A and Escape.
   */
  onCommand?(command: KeyCommand, bookmark: Bookmark): void;
  /** Lets the bookmarks be dragged onto a source (the library page): the selection when the dragged one is in it. */
  draggable?: boolean;
}

export type KeyCommand = 'edit' | 'trash' | 'move' | 'tag';
const KEY_COMMANDS: Record<string, KeyCommand> = { e: 'edit', Delete: 'trash', m: 'move', t: 'tag' };
/** The type a drag of bookmarks carries (their ids as JSON), for a source to accept. */
export const BOOKMARKS_DRAG_TYPE = 'application/x-shelf-bookmark-ids';

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
  const virtualizer = useVirtualizer({ count: lines, getScrollElement: () => scrollRef.current, estimateSize: () => height, overscan: Math.max(1, Math.ceil(OVERSCAN_ITEMS / columns)), initialRect: INITIAL_RECT });
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, height]);
  const items = virtualizer.getVirtualItems();
  const last = ((items.at(-1)?.index ?? -1) + 1) * columns - 1;
  // Only when a selection needs it: a render while scrolling 10,000 rows does not walk them all.
  const orderOf = () => bookmarks.map((b) => b.id);
  // The rows' handlers stay the same from render to render, so that a row re-renders only when its own bookmark or state changes.
  const latest = useRef(props);
  const itemKeyDown = useRef<(event: KeyboardEvent, index: number) => void>(() => undefined);
  // The bookmark the arrow keys are on; focus follows it once its item is drawn (it may be scrolled in first).
  const [active, setActive] = useState(0);
  const [focusWanted, setFocusWanted] = useState(false);
  // Set by a key pressed in the list, cleared by the wheel, a pointer or a touch: what moves the view now.
  const [byKeys, setByKeys] = useState(false);
  const flung = useFling(virtualizer.scrollOffset ?? 0, virtualizer.isScrolling, virtualizer.scrollRect?.height ?? INITIAL_RECT.height, byKeys);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const onSelect = useCallback((b: Bookmark, mode: SelectMode) => {
    const { selection: now, bookmarks: shown, onSelectionChange: change } = latest.current;
    change(select(now, shown.map((x) => x.id), b.id, mode));
  }, []);
  const onOpen = useCallback((b: Bookmark, inNewTab: boolean) => latest.current.onOpen(b, inNewTab), []);
  const onAction = useCallback((action: RowAction, b: Bookmark) => latest.current.onAction(action, b), []);
  const onItemKeyDown = useCallback((event: KeyboardEvent, index: number) => itemKeyDown.current(event, index), []);
  const onItemFocus = useCallback((index: number) => setActive(index), []);
  const onDragStart = useCallback((event: DragEvent, b: Bookmark) => {
    const { selection: now, bookmarks: shown } = latest.current;
    const ids = now.ids.has(b.id) ? shown.filter((x) => now.ids.has(x.id)).map((x) => x.id) : [b.id];
    event.dataTransfer.setData(BOOKMARKS_DRAG_TYPE, JSON.stringify(ids));
    event.dataTransfer.setData('text/uri-list', b.url);
    event.dataTransfer.effectAllowed = 'copyMove';
  }, []);
  const handlers = useMemo<ItemHandlers>(() => ({ onSelect, onOpen, onAction, onKeyDown: onItemKeyDown, onFocus: onItemFocus, onDragStart }), [onSelect, onOpen, onAction, onItemKeyDown, onItemFocus, onDragStart]);

  useEffect(() => {
    if (hasMore && !loadingMore && last >= bookmarks.length - PREFETCH_ROWS) loadMore();
  }, [hasMore, loadingMore, last, bookmarks.length, loadMore]);

  useEffect(() => {
    if (!focusWanted) return;
    const item = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    if (item) {
      item.focus();
      setFocusWanted(false);
    }
  });
  const moveTo = (index: number) => {
    const next = Math.min(bookmarks.length - 1, Math.max(0, index));
    setActive(next);
    setFocusWanted(true);
    virtualizer.scrollToIndex(Math.floor(next / columns));
  };
  const keyDownOn = (event: KeyboardEvent, index: number) => {
    // Keys typed in a link or button of the item are theirs (Enter follows the link), except the arrows.
    const own = event.target === event.currentTarget;
    const b = bookmarks[index]!;
    const step = { ArrowDown: columns, ArrowUp: -columns, ArrowRight: columns > 1 ? 1 : 0, ArrowLeft: columns > 1 ? -1 : 0 }[event.key];
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (step !== undefined) {
      event.preventDefault();
      if (step !== 0) moveTo(index + step);
    } else if (own && event.key === 'Enter') {
      event.preventDefault();
      props.onOpen(b, false);
    } else if (own && event.key === ' ') {
      event.preventDefault();
      onSelect(b, event.shiftKey ? 'range' : 'toggle');
    } else if (props.onCommand && KEY_COMMANDS[event.key] && !event.shiftKey) {
      event.preventDefault();
      props.onCommand(KEY_COMMANDS[event.key]!, b);
    }
  };
  // The items call the last commit's handler through the ref, and so keep one handler from render to render.
  useLayoutEffect(() => {
    itemKeyDown.current = keyDownOn;
  });

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
      onKeyDownCapture={() => setByKeys(true)}
      onWheel={() => setByKeys(false)}
      onPointerDown={() => setByKeys(false)}
      onTouchStart={() => setByKeys(false)}
      className={`min-h-0 flex-1 overflow-y-auto ${focusRing}`}
    >
      <ul className="relative" style={{ height: virtualizer.getTotalSize() }} aria-label={props.label}>
        {items.flatMap((line) =>
          bookmarks.slice(line.index * columns, (line.index + 1) * columns).map((b, column) => {
            const index = line.index * columns + column;
            return (
              <ListItem
                key={b.id}
                bookmark={b}
                view={view}
                index={index}
                setSize={hasMore ? -1 : bookmarks.length}
                top={line.start}
                column={column}
                columns={columns}
                height={height}
                selected={selection.ids.has(b.id)}
                light={view === 'grid' && flung && index !== active && !selection.ids.has(b.id)}
                current={props.isCurrent(b)}
                tabbable={props.onCommand ? index === Math.min(active, bookmarks.length - 1) : undefined}
                draggable={props.draggable === true}
                handlers={handlers}
              />
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

/** The handlers every item shares: the same object from render to render. */
interface ItemHandlers extends Pick<BookmarkRowProps, 'onSelect' | 'onOpen' | 'onAction'> {
  onKeyDown(event: KeyboardEvent, index: number): void;
  onFocus(index: number): void;
  onDragStart(event: DragEvent, bookmark: Bookmark): void;
}

interface ListItemProps {
  bookmark: Bookmark;
  view: ListView;
  index: number;
  /** -1 while more can load. */
  setSize: number;
  /** Where its line starts, and its place in the line. */
  top: number;
  column: number;
  columns: number;
  height: number;
  selected: boolean;
  /** Entering as the grid is flung: its cover's colour alone, until the fling ends (components/library/fling.ts). */
  light: boolean;
  current: boolean;
  /** Whether it is the list's tab stop; undefined where the list takes no keyboard commands. */
  tabbable: boolean | undefined;
  draggable: boolean;
  handlers: ItemHandlers;
}

/**
 * One bookmark of the list, in its place. Its props are values and the list's shared handlers, so a scroll
 * renders only the items that enter the view: those already in the page keep theirs.
 */
const ListItem = memo(function ListItem({ bookmark: b, view, index, setSize, top, column, columns, height, selected, light, current, tabbable, draggable, handlers }: ListItemProps) {
  const full = useDrawnFull(light);
  const keyboard = tabbable !== undefined;
  const itemProps = { bookmark: b, selected, current, onSelect: handlers.onSelect, onOpen: handlers.onOpen, onAction: handlers.onAction };
  return (
    <li
      data-index={index}
      tabIndex={keyboard ? (tabbable ? 0 : -1) : undefined}
      onKeyDown={keyboard ? (event) => handlers.onKeyDown(event, index) : undefined}
      onFocus={keyboard ? () => handlers.onFocus(index) : undefined}
      draggable={draggable || undefined}
      onDragStart={draggable ? (event) => handlers.onDragStart(event, b) : undefined}
      aria-setsize={setSize}
      aria-posinset={index + 1}
      className={`absolute top-0 ${columns > 1 ? 'p-1.5' : ''} ${focusRing}`}
      style={{ height, left: `${(column * 100) / columns}%`, width: `${100 / columns}%`, transform: `translateY(${top}px)` }}
    >
      {!full ? <CoverBlock bookmark={b} /> : view === 'rows' || view === 'list' ? <BookmarkRow {...itemProps} dense={view === 'list'} /> : <BookmarkCard {...itemProps} tile={view === 'grid'} />}
    </li>
  );
});

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
