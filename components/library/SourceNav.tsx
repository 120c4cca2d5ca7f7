import { type DragEvent, useId, useState } from 'react';
import * as z from 'zod/mini';
import type { BookmarkStats } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { SmartFolder } from '../../lib/api/smart-folders.ts';
import type { Tag } from '../../lib/api/tags.ts';
import type { BrowseSource } from '../../lib/messaging/library-requests.ts';
import type { PanelPlace } from '../../lib/storage/library-items.ts';
import { treeRows } from '../collection-tree.ts';
import { focusRing, inputClass } from '../field-styles.ts';
import { bookmarkCount } from '../options/count.ts';
import { BOOKMARKS_DRAG_TYPE } from './BookmarkList.tsx';

/** What the user opens: a list of bookmarks (with its title) or a smart folder. */
export type Place = PanelPlace;

interface Props {
  collections: readonly Collection[] | null;
  tags: readonly Tag[] | null;
  smartFolders: readonly SmartFolder[] | null;
  /** The library's totals, for the counts beside All, Favourites and Unsorted; null until read (or when they cannot be). */
  stats?: BookmarkStats | null;
  onOpen(place: Place): void;
  /** The clean-up views the panel opens in place of a list: not remembered as the place to reopen on. */
  onTool?(tool: LibraryTool): void;
  /** Bookmarks dragged onto a collection or a tag (the library page): without it, the sources take no drops. */
  onDropBookmarks?(target: DropTarget, ids: string[]): void;
}

/** Where bookmarks are dropped: a collection moves them there, a tag tags them. */
export type DropTarget = { kind: 'collection'; id: string } | { kind: 'tag'; name: string };

/** What a drag carries, checked as any input from outside is: a drag may come from another page. */
const DraggedIds = z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.minLength(1));

const draggedIds = (event: DragEvent): string[] | null => {
  try {
    const parsed = DraggedIds.safeParse(JSON.parse(event.dataTransfer.getData(BOOKMARKS_DRAG_TYPE)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

export type LibraryTool = 'duplicates' | 'broken-links' | 'trash' | 'sites' | 'overview';

const itemClass = `flex w-full items-center justify-between gap-2 rounded px-2 py-1 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800 ${focusRing}`;

function Item({ label, depth = 0, count, onClick, onDropIds }: { label: string; depth?: number; count?: number; onClick(): void; onDropIds?: (ids: string[]) => void }) {
  const [over, setOver] = useState(false);
  // The count describes the place rather than naming it: the name stays as it is while counts come and change.
  // The number is shown in the button, hidden from its name; the words it is read as are beside it.
  const countId = useId();
  const accepts = (event: DragEvent) => onDropIds !== undefined && event.dataTransfer.types.includes(BOOKMARKS_DRAG_TYPE);
  return (
    <li
      onDragOver={(event) => {
        if (!accepts(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        setOver(false);
        if (!accepts(event)) return;
        event.preventDefault();
        const ids = draggedIds(event);
        if (ids) onDropIds!(ids);
      }}
    >
      <button
        type="button"
        className={`${itemClass} ${over ? 'bg-blue-100 dark:bg-blue-900' : ''}`}
        style={{ paddingLeft: `${0.5 + depth}rem` }}
        onClick={onClick}
        aria-describedby={count !== undefined ? countId : undefined}
      >
        <span className="truncate">{label}</span>
        {count !== undefined && (
          <span aria-hidden="true" className="text-xs text-zinc-500 dark:text-zinc-400">
            {count}
          </span>
        )}
      </button>
      {count !== undefined && (
        <span id={countId} hidden>
          {bookmarkCount(count)}
        </span>
      )}
    </li>
  );
}

function Group({ title, children, empty }: { title: string; children: React.ReactNode[]; empty: string }) {
  return (
    <section aria-label={title} className="space-y-1">
      <h2 className="px-2 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{title}</h2>
      {children.length ? <ul>{children}</ul> : <p className="px-2 text-xs text-zinc-500 dark:text-zinc-400">{empty}</p>}
    </section>
  );
}

/** The library's places: the fixed lists, the collections and tags as trees (with a filter), the smart folders. */
export function SourceNav({ collections, tags, smartFolders, stats = null, onOpen, onTool, onDropBookmarks }: Props) {
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const list = (source: BrowseSource, title: string) => () => onOpen({ kind: 'list', source, title });
  const dropOn = (target: DropTarget) => (onDropBookmarks ? (ids: string[]) => onDropBookmarks(target, ids) : undefined);

  const collectionItems = treeRows(collections ?? [], filter).flatMap(({ collection, depth }) =>
    collection ? [<Item key={collection.id} label={collection.name} depth={depth} count={collection.bookmarkCount} onClick={list({ kind: 'collection', id: collection.id }, collection.name)} onDropIds={dropOn({ kind: 'collection', id: collection.id })} />] : [],
  );
  const tagItems = [...(tags ?? [])]
    .filter((t) => q === '' || t.name.toLowerCase().includes(q))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => {
      const levels = t.name.split('/');
      return <Item key={t.id} label={levels.at(-1)!} depth={levels.length - 1} count={t.count} onClick={list({ kind: 'tag', id: t.id }, t.name)} onDropIds={dropOn({ kind: 'tag', name: t.name })} />;
    });
  const folderItems = (smartFolders ?? []).map((f) => <Item key={f.id} label={`${f.icon ? `${f.icon} ` : ''}${f.name}`} onClick={() => onOpen({ kind: 'smart', id: f.id, name: f.name })} />);

  return (
    <nav aria-label="Library" className="min-h-0 flex-1 space-y-4 overflow-y-auto p-2">
      <ul>
        <Item label="All bookmarks" count={stats?.total} onClick={list({ kind: 'all' }, 'All bookmarks')} />
        <Item label="Favourites" count={stats?.favorites} onClick={list({ kind: 'favorites' }, 'Favourites')} />
        <Item label="Unsorted" count={stats?.unsorted} onClick={list({ kind: 'unsorted' }, 'Unsorted')} />
        {onTool && <Item label="Overview" onClick={() => onTool('overview')} />}
        {onTool && <Item label="Sites" onClick={() => onTool('sites')} />}
        {onTool && <Item label="Duplicates" onClick={() => onTool('duplicates')} />}
        {onTool && <Item label="Broken links" onClick={() => onTool('broken-links')} />}
        {onTool && <Item label="Trash" onClick={() => onTool('trash')} />}
      </ul>
      <label className="block px-2">
        <span className="sr-only">Filter collections and tags</span>
        <input className={inputClass} placeholder="Filter collections and tags" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </label>
      <Group title="Smart folders" empty={smartFolders ? 'No smart folders yet.' : 'Loading…'}>
        {folderItems}
      </Group>
      <Group title="Collections" empty={collections ? 'No collections.' : 'Loading…'}>
        {collectionItems}
      </Group>
      <Group title="Tags" empty={tags ? 'No tags.' : 'Loading…'}>
        {tagItems}
      </Group>
    </nav>
  );
}
