import { type MouseEvent, memo } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { shownImage } from '../../lib/dom/shown-values.ts';
import { focusRing } from '../field-styles.ts';
import { relativeDate } from './relative-date.ts';
import { type SelectMode, modeOf } from './selection.ts';

export type RowAction = 'favorite' | 'move' | 'tag' | 'edit' | 'trash';

export interface BookmarkRowProps {
  bookmark: Bookmark;
  selected: boolean;
  /** The page of the current tab. */
  current: boolean;
  onSelect(bookmark: Bookmark, mode: SelectMode): void;
  onOpen(bookmark: Bookmark, inNewTab: boolean): void;
  onAction(action: RowAction, bookmark: Bookmark): void;
}

const actionButton = `rounded px-1.5 py-0.5 text-xs text-zinc-600 hover:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-700 ${focusRing}`;

/**
 * One bookmark: favicon, title, domain, tags, cover thumbnail and age. A click
 * on the title opens it in this tab (Ctrl/Cmd or middle click: a new tab); a
 * click elsewhere on the row selects it (Shift: a range, Ctrl/Cmd: add).
 */
export const BookmarkRow = memo(function BookmarkRow({ bookmark: b, selected, current, onSelect, onOpen, onAction }: BookmarkRowProps) {
  const title = b.title || b.url;
  const favicon = shownImage(b.favicon);
  const cover = shownImage(b.coverImage);
  const open = (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    onOpen(b, event.button === 1 || event.ctrlKey || event.metaKey);
  };
  return (
    <div
      onClick={(event) => onSelect(b, modeOf(event))}
      aria-current={current ? 'page' : undefined}
      className={`flex h-full items-start gap-2 border-b border-zinc-100 px-2 py-1.5 dark:border-zinc-800 ${
        selected ? 'bg-blue-50 dark:bg-blue-950' : current ? 'bg-amber-50 dark:bg-amber-950' : ''
      }`}
    >
      <input
        type="checkbox"
        aria-label={`Select ${title}`}
        checked={selected}
        onClick={(event) => event.stopPropagation()}
        onChange={(event) => onSelect(b, (event.nativeEvent as unknown as globalThis.MouseEvent).shiftKey ? 'range' : 'toggle')}
        className="mt-1"
      />
      {favicon ? <img src={favicon} alt="" width={16} height={16} className="mt-1 shrink-0" loading="lazy" /> : <span className="w-4 shrink-0" />}
      <div className="min-w-0 flex-1">
        <a href={b.url} onClick={open} onAuxClick={open} className={`block truncate text-sm font-medium hover:underline ${focusRing}`} title={b.url}>
          {current && <span className="sr-only">Current page: </span>}
          {title}
        </a>
        <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">
          {b.domain} · <time dateTime={b.createdAt}>{relativeDate(b.createdAt)}</time>
          {b.tags.length > 0 && <span> · {b.tags.map((t) => `#${t}`).join(' ')}</span>}
        </p>
        <div className="mt-0.5 flex gap-0.5" onClick={(event) => event.stopPropagation()}>
          <button type="button" className={actionButton} aria-pressed={b.isFavorite} aria-label={`Favourite ${title}`} onClick={() => onAction('favorite', b)}>
            {b.isFavorite ? '★' : '☆'}
          </button>
          <button type="button" className={actionButton} aria-label={`Move ${title}`} onClick={() => onAction('move', b)}>
            Move
          </button>
          <button type="button" className={actionButton} aria-label={`Tag ${title}`} onClick={() => onAction('tag', b)}>
            Tag
          </button>
          <button type="button" className={actionButton} aria-label={`Edit ${title}`} onClick={() => onAction('edit', b)}>
            Edit
          </button>
          <button type="button" className={actionButton} aria-label={`Trash ${title}`} onClick={() => onAction('trash', b)}>
            Trash
          </button>
        </div>
      </div>
      {cover && <img src={cover} alt="Cover" width={48} height={48} className="h-12 w-12 shrink-0 rounded object-cover" loading="lazy" />}
    </div>
  );
});
