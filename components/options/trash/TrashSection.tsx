import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { Bookmark } from '../../../lib/api/bookmarks.ts';
import { dangerButtonClass, focusRing, secondaryButtonClass } from '../../field-styles.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { MissingScope, useScopes } from '../scopes.tsx';
import { SectionError, failureOf } from '../SectionError.tsx';
import { useTrash } from './use-trash.ts';

const ROW_HEIGHT = 64;
/** How close to the end (in rows) the next page is asked for. */
const PREFETCH_ROWS = 20;
const INITIAL_RECT = { width: 560, height: 480 };

type Pending = { kind: 'delete'; bookmark: Bookmark } | { kind: 'empty' };

const domainOf = (b: Bookmark) => b.domain || b.url;

/** The Trash section: trashed bookmarks with restore, and for a token with `destructive`, delete for good and empty trash. */
export function TrashSection() {
  const scopes = useScopes();
  const { list, bookmarks, restore, deleteForever, empty } = useTrash();
  const [pending, setPending] = useState<Pending | null>(null);
  const [status, setStatus] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: bookmarks.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8, initialRect: INITIAL_RECT });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && last >= bookmarks.length - PREFETCH_ROWS) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, last, bookmarks.length, fetchNextPage]);

  if (!scopes.loaded) return null;
  if (!scopes.allows('bookmarks:read')) return <MissingScope scope="bookmarks:read">The trash cannot be shown.</MissingScope>;

  const mayRestore = scopes.allows('bookmarks:write');
  const mayDestroy = scopes.allows('destructive');
  const failure = failureOf(list.error ?? restore.error ?? deleteForever.error ?? empty.error);

  const confirm = () => {
    if (!pending) return;
    if (pending.kind === 'delete') {
      const { bookmark } = pending;
      deleteForever.mutate(bookmark.id, { onSuccess: () => setStatus(`Deleted “${bookmark.title}” for good.`) });
    } else {
      empty.mutate(undefined, { onSuccess: ({ deleted }) => setStatus(`Emptied the trash: ${deleted} ${deleted === 1 ? 'bookmark' : 'bookmarks'} deleted for good.`) });
    }
    setPending(null);
  };

  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">Trashed bookmarks can be restored for 30 days.</p>
      {mayDestroy ? (
        <button type="button" className={`${dangerButtonClass} border border-red-300 dark:border-red-800`} disabled={bookmarks.length === 0} onClick={() => setPending({ kind: 'empty' })}>
          Empty trash
        </button>
      ) : (
        <MissingScope scope="destructive">Deleting bookmarks for good and emptying the trash are not offered.</MissingScope>
      )}
      {!mayRestore && <MissingScope scope="bookmarks:write">Restoring bookmarks is not offered.</MissingScope>}
      <p role="status" className="text-sm">
        {status}
      </p>
      {failure && <SectionError error={failure} />}
      {list.isSuccess && bookmarks.length === 0 && <p className="text-sm">The trash is empty.</p>}
      <div ref={scrollRef} role="region" aria-label="Trashed bookmarks" tabIndex={0} className={`max-h-[60vh] overflow-y-auto rounded-md border border-zinc-200 dark:border-zinc-800 ${focusRing}`}>
        <ul aria-label="Trashed bookmarks" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const b = bookmarks[item.index]!;
            return (
              <li
                key={b.id}
                aria-setsize={hasNextPage ? -1 : bookmarks.length}
                aria-posinset={item.index + 1}
                className="absolute left-0 top-0 flex w-full items-center gap-2 border-b border-zinc-100 px-3 dark:border-zinc-800"
                style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{b.title}</p>
                  <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{domainOf(b)}</p>
                </div>
                {mayRestore && (
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    aria-label={`Restore ${b.title}`}
                    onClick={() => restore.mutate(b.id, { onSuccess: () => setStatus(`Restored “${b.title}”.`) })}
                  >
                    Restore
                  </button>
                )}
                {mayDestroy && (
                  <button type="button" className={dangerButtonClass} aria-label={`Delete for good: ${b.title}`} onClick={() => setPending({ kind: 'delete', bookmark: b })}>
                    Delete for good
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      {pending && (
        <ConfirmDialog
          title={pending.kind === 'empty' ? 'Empty the trash?' : 'Delete this bookmark for good?'}
          confirmLabel={pending.kind === 'empty' ? 'Empty trash' : 'Delete for good'}
          onConfirm={confirm}
          onCancel={() => setPending(null)}
        >
          <p>
            {pending.kind === 'empty'
              ? 'Every bookmark in the trash is deleted for good, with its tags, note and cover. This cannot be undone.'
              : `“${pending.bookmark.title}” is deleted for good, with its tags, note and cover. This cannot be undone.`}
          </p>
          {pending.kind === 'empty' && <p>To bring a trashed collection back, restore it from Collections first: emptying the trash deletes its bookmarks too.</p>}
        </ConfirmDialog>
      )}
    </div>
  );
}
