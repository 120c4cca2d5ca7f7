import { memo } from 'react';
import { focusRing } from '../field-styles.ts';
import { type BookmarkRowProps, RowActions, SelectBox, openOnClick, selectedClass } from './BookmarkRow.tsx';
import { Cover } from './cover-placeholder.tsx';
import { modeOf } from './selection.ts';

export interface BookmarkCardProps extends Omit<BookmarkRowProps, 'dense'> {
  /** The grid's tile: the cover alone, the title shown on hover and on focus. */
  tile?: boolean;
}

/**
 * One bookmark as a card (cover, title, excerpt, domain, tags and its actions) or as a grid's tile. Clicks
 * work as on a row: the title opens, the rest selects.
 */
export const BookmarkCard = memo(function BookmarkCard({ bookmark: b, tile = false, selected, current, onSelect, onOpen, onAction }: BookmarkCardProps) {
  const title = b.title || b.url;
  const open = openOnClick(b, onOpen);
  const ring = selected ? 'ring-2 ring-blue-600 dark:ring-blue-400' : '';
  if (tile) {
    return (
      <div onClick={(event) => onSelect(b, modeOf(event))} aria-current={current ? 'page' : undefined} className={`group relative h-full overflow-hidden rounded-lg ${ring}`}>
        <Cover bookmark={b} className="h-full w-full" />
        {/* The title is hidden, not transparent, until the tile is hovered or focused: a transparent one is still
            painted, for every tile a scroll brings in. Hidden text names nothing, so the link is named by its label. */}
        <a href={b.url} onClick={open} onAuxClick={open} title={b.url} aria-label={current ? `Current page: ${title}` : title} className={`absolute inset-x-0 bottom-0 block ${focusRing}`}>
          <span className="invisible block truncate bg-zinc-900/85 px-2 py-1 text-sm font-medium text-white group-hover:visible group-focus-within:visible">{title}</span>
        </a>
        <SelectBox bookmark={b} title={title} selected={selected} onSelect={onSelect} className="absolute left-2 top-2" />
      </div>
    );
  }
  return (
    <div
      onClick={(event) => onSelect(b, modeOf(event))}
      aria-current={current ? 'page' : undefined}
      className={`flex h-full flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900 ${ring} ${selectedClass(selected, current)}`}
    >
      <div className="relative h-32 shrink-0">
        <Cover bookmark={b} className="h-full w-full" />
        <SelectBox bookmark={b} title={title} selected={selected} onSelect={onSelect} className="absolute left-2 top-2" />
      </div>
      <div className="flex min-h-0 flex-1 flex-col gap-1 p-2">
        <a href={b.url} onClick={open} onAuxClick={open} title={b.url} className={`line-clamp-2 text-sm font-medium hover:underline ${focusRing}`}>
          {current && <span className="sr-only">Current page: </span>}
          {title}
        </a>
        {(b.excerpt || b.description) && <p className="line-clamp-2 text-xs text-zinc-600 dark:text-zinc-400">{b.excerpt || b.description}</p>}
        <p className="mt-auto truncate text-xs text-zinc-500 dark:text-zinc-400">
          {b.domain}
          {b.tags.length > 0 && <span> · {b.tags.map((t) => `#${t}`).join(' ')}</span>}
        </p>
        <RowActions bookmark={b} title={title} onAction={onAction} />
      </div>
    </div>
  );
});
