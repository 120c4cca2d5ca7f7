import { type Rect, type Virtualizer, elementScroll, observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import type { DuplicateBookmark, DuplicateGroup } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { focusRing, primaryButtonClass } from '../field-styles.ts';

/** Every group is as tall: its bookmarks stand side by side (scrolling sideways), each note cut to a few lines. */
const GROUP_HEIGHT = 300;
/** Groups placed beyond the region's height each way, once it is measured: none in the first commit (below). */
const OVERSCAN = 3;
const INITIAL_RECT = { width: 560, height: 640 };

/*
 * The virtualiser as it mounts, in the layout effect of the commit that brings the first groups, reads its scroll
 * element's size and scrolls it to the top: either forces the page's style and layout inside that commit (16-19 ms
 * of CPU before the groups were in the page). Here it does neither: the size comes from its ResizeObserver, after the
 * frame's layout (INITIAL_RECT until then), and a new element is at the top already.
 */

/** The scroll element's size as its ResizeObserver reports it; without a ResizeObserver, the library's own (read at once). */
function observeRectAfterLayout(instance: Virtualizer<HTMLDivElement, Element>, onRect: (rect: Rect) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  const Observer = instance.targetWindow?.ResizeObserver;
  if (!element || !Observer) return observeElementRect(instance, onRect);
  const observer = new Observer(() => onRect({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

/** Scroll elements written to once: the first write, the mount's scroll to the top, is left out for a new element. */
const scrolledOnce = new WeakSet<Element>();

function scrollAfterMount(offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, instance: Virtualizer<HTMLDivElement, Element>): void {
  const element = instance.scrollElement;
  if (element && !scrolledOnce.has(element)) {
    scrolledOnce.add(element);
    if (offset === 0 && !options.adjustments) return;
  }
  elementScroll(offset, options, instance);
}

const day = (iso: string) => new Date(iso).toLocaleDateString();

function Card({ bookmark: b, group, collections, kept, onKeep }: { bookmark: DuplicateBookmark; group: string; collections: Map<string, Collection>; kept: boolean; onKeep(): void }) {
  const collection = b.collectionId === null ? 'Unsorted' : (collections.get(b.collectionId)?.name ?? 'A collection');
  const title = b.title || b.url;
  return (
    <div className={`flex h-full w-56 shrink-0 flex-col gap-1 rounded-md border p-2 text-xs ${kept ? 'border-blue-500 bg-blue-50 dark:border-blue-400 dark:bg-blue-950' : 'border-zinc-200 dark:border-zinc-700'}`}>
      <label className="flex items-center gap-1.5 font-medium">
        <input type="radio" name={group} checked={kept} onChange={onKeep} aria-label={`Keep ${title} (${b.url})`} />
        {kept ? 'Kept' : 'Keep this one'}
      </label>
      <p className="line-clamp-2 text-sm font-medium" title={title}>
        {title}
      </p>
      <p className="truncate text-zinc-600 dark:text-zinc-400" title={b.url}>
        {b.url}
      </p>
      <p>
        <span className="text-zinc-500">Collection:</span> {collection}
      </p>
      <p className="line-clamp-2">
        <span className="text-zinc-500">Tags:</span> {b.tags.length ? b.tags.map((t) => `#${t}`).join(' ') : 'none'}
      </p>
      <p>
        <span className="text-zinc-500">Saved</span> <time dateTime={b.createdAt}>{day(b.createdAt)}</time>
        {' · '}
        <span className="text-zinc-500">changed</span> <time dateTime={b.updatedAt}>{day(b.updatedAt)}</time>
      </p>
      <p className="line-clamp-3 whitespace-pre-line">
        <span className="text-zinc-500">Note:</span> {b.note.trim() || 'none'}
      </p>
    </div>
  );
}

interface DuplicateGroupListProps {
  /** At least one: the list is mounted with its first groups (see DuplicatesView). */
  groups: readonly DuplicateGroup[];
  /** The search's count, those still to come included. */
  total: number;
  collections: Map<string, Collection>;
  merging: boolean;
  /** The id of the group's bookmark to keep. */
  keepOf(bookmarks: DuplicateBookmark[]): string;
  /** The user keeps `id` in the group whose first bookmark is `first`. */
  onKeep(first: string, id: string): void;
  onMerge(bookmarks: DuplicateBookmark[], keepId: string): void;
}

/**
 * The duplicate groups, virtualised (500 open as fast as 10), each group's bookmarks side by side. The virtualizer
 * shows no item while its scroll element is measured 0 px high, and it is measured when it mounts: mounted before
 * the first groups (an empty list, 0 px), it showed them only after their render, a frame and a resize observation
 * later. Mounted with them, its first render places them in the initial rectangle.
 */
export function DuplicateGroupList({ groups, total, collections, merging, keepOf, onKeep, onMerge }: DuplicateGroupListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The first commit, which the user waits for, places only the groups the first guess shows (half as many); the
  // overscan comes with the region's measured size, in the commit after the first frame's layout.
  const [measured, setMeasured] = useState(false);
  const virtualizer = useVirtualizer({
    count: groups.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => GROUP_HEIGHT,
    overscan: measured ? OVERSCAN : 0,
    initialRect: INITIAL_RECT,
    observeElementRect: (instance, onRect) =>
      observeRectAfterLayout(instance, (rect) => {
        setMeasured(true);
        onRect(rect);
      }),
    scrollToFn: scrollAfterMount,
  });
  return (
    <div ref={scrollRef} role="region" aria-label="Duplicate groups" tabIndex={0} className={`max-h-[75vh] min-h-0 flex-1 overflow-y-auto ${focusRing}`}>
      <ul aria-label="Duplicate groups" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const group = groups[item.index]!;
          const keepId = keepOf(group.bookmarks);
          const first = group.bookmarks[0]!.id;
          return (
            <li
              key={first}
              aria-setsize={total}
              aria-posinset={item.index + 1}
              className="absolute left-0 top-0 w-full py-1"
              style={{ height: GROUP_HEIGHT, transform: `translateY(${item.start}px)` }}
            >
              <fieldset aria-label={`Duplicates of ${group.normalizedUrl}`} className="flex h-full flex-col gap-1 rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
                <legend className="sr-only">Duplicates of {group.normalizedUrl}</legend>
                <div className="flex items-center gap-2">
                  <p className="min-w-0 flex-1 truncate text-xs text-zinc-600 dark:text-zinc-400">
                    {group.bookmarks.length} bookmarks of {group.normalizedUrl}
                  </p>
                  <button
                    type="button"
                    className={primaryButtonClass}
                    disabled={merging}
                    aria-label={`Merge the duplicates of ${group.normalizedUrl}`}
                    onClick={() => onMerge(group.bookmarks, keepId)}
                  >
                    Merge
                  </button>
                </div>
                <div className="flex min-h-0 flex-1 gap-2 overflow-x-auto">
                  {group.bookmarks.map((b) => (
                    <Card key={b.id} bookmark={b} group={first} collections={collections} kept={b.id === keepId} onKeep={() => onKeep(first, b.id)} />
                  ))}
                </div>
              </fieldset>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
