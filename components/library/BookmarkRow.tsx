import { type MouseEvent, memo } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { shownImage } from '../../lib/dom/shown-values.ts';
import { focusRing } from '../field-styles.ts';
import { useFavicon } from './favicon.ts';
import { relativeDate } from './relative-date.ts';
import { type SelectMode, modeOf } from './selection.ts';

export type RowAction = 'favorite' | 'move' | 'tag' | 'edit' | 'trash';

export interface BookmarkRowProps {
  bookmark: Bookmark;
  /** One line a bookmark (the library page's list view): title, domain, tags and age, the actions at its end. */
  dense?: boolean;
  selected: boolean;
  /** The page of the current tab. */
  current: boolean;
  onSelect(bookmark: Bookmark, mode: SelectMode): void;
  onOpen(bookmark: Bookmark, inNewTab: boolean): void;
  onAction(action: RowAction, bookmark: Bookmark): void;
}

/** A bookmark's own actions, as the rows and the cards show them. */
export function RowActions({ bookmark: b, title, onAction, className = '' }: { bookmark: Bookmark; title: string; onAction: BookmarkRowProps['onAction']; className?: string }) {
  return (
    <div className={`flex shrink-0 gap-0.5 ${className}`} onClick={(event) => event.stopPropagation()}>
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
  );
}

const actionButton = `rounded px-1.5 py-0.5 text-xs text-zinc-600 hover:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-700 ${focusRing}`;

/** A click that opens a bookmark: in this tab, or a new one with Ctrl/Cmd or the middle button. */
export const openOnClick = (b: Bookmark, onOpen: BookmarkRowProps['onOpen']) => (event: MouseEvent) => {
  event.preventDefault();
  event.stopPropagation();
  onOpen(b, event.button === 1 || event.ctrlKey || event.metaKey);
};

/** The checkbox that selects a bookmark (Shift: the range from the last one). */
export function SelectBox({ bookmark: b, title, selected, onSelect, className = '' }: { bookmark: Bookmark; title: string; selected: boolean; onSelect: BookmarkRowProps['onSelect']; className?: string }) {
  return (
    <input
      type="checkbox"
      aria-label={`Select ${title}`}
      checked={selected}
      onClick={(event) => event.stopPropagation()}
      onChange={(event) => onSelect(b, (event.nativeEvent as unknown as globalThis.MouseEvent).shiftKey ? 'range' : 'toggle')}
      className={className}
    />
  );
}

export const selectedClass = (selected: boolean, current: boolean) => (selected ? 'bg-blue-50 dark:bg-blue-950' : current ? 'bg-amber-50 dark:bg-amber-950' : '');

/**
 * One bookmark: favicon, title, domain, tags, cover thumbnail and age. A click
 * on the title opens it in this tab (Ctrl/Cmd or middle click: a new tab); a
 * click elsewhere on the row selects it (Shift: a range, Ctrl/Cmd: add).
 */
export const BookmarkRow = memo(function BookmarkRow({ bookmark: b, dense = false, selected, current, onSelect, onOpen, onAction }: BookmarkRowProps) {
  const title = b.title || b.url;
  const favicon = useFavicon(b.favicon);
  const cover = dense ? null : shownImage(b.coverImage);
  const open = openOnClick(b, onOpen);
  const details = (
    <p className={`truncate text-xs text-zinc-500 dark:text-zinc-400 ${dense ? 'max-w-[40%] shrink-0' : ''}`}>
      {b.domain} · <time dateTime={b.createdAt}>{relativeDate(b.createdAt)}</time>
      {b.tags.length > 0 && <span> · {b.tags.map((t) => `#${t}`).join(' ')}</span>}
    </p>
  );
  const link = (
    <a href={b.url} onClick={open} onAuxClick={open} className={`block truncate text-sm font-medium hover:underline ${dense ? 'min-w-0 flex-1' : ''} ${focusRing}`} title={b.url}>
      {current && <span className="sr-only">Current page: </span>}
      {title}
    </a>
  );
  return (
    <div
      onClick={(event) => onSelect(b, modeOf(event))}
      aria-current={current ? 'page' : undefined}
      className={`flex h-full gap-2 border-b border-zinc-100 px-2 dark:border-zinc-800 ${dense ? 'items-center' : 'items-start py-1.5'} ${selectedClass(selected, current)}`}
    >
      <SelectBox bookmark={b} title={title} selected={selected} onSelect={onSelect} className={dense ? '' : 'mt-1'} />
      {favicon.src ? <img src={favicon.src} alt="" width={16} height={16} className={`shrink-0 ${dense ? '' : 'mt-1'}`} loading="lazy" onLoad={favicon.onLoad} onError={favicon.onError} /> : <span className="w-4 shrink-0" />}
      {dense ? (
        <>
          {link}
          {details}
          <RowActions bookmark={b} title={title} onAction={onAction} />
        </>
      ) : (
        <div className="min-w-0 flex-1">
          {link}
          {details}
          <RowActions bookmark={b} title={title} onAction={onAction} className="mt-0.5" />
        </div>
      )}
      {cover && <img src={cover} alt="Cover" width={48} height={48} className="h-12 w-12 shrink-0 rounded object-cover" loading="lazy" />}
    </div>
  );
});
