import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, createContext, useCallback, useContext, useEffect, useState } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type BrowseSource, MAX_OPEN_ALL } from '../../lib/messaging/library-requests.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { forgetPanelPaint } from '../../lib/storage/panel-paint.ts';
import { normaliseUrl } from '../../lib/url.ts';
import { ErrorAlertWithSignIn } from '../account/SignInAgain.tsx';
import { quietButtonClass, secondaryButtonClass } from '../field-styles.ts';
import { BrokenLinksSection } from '../options/broken-links/BrokenLinksSection.tsx';
import { TrashSection } from '../options/trash/TrashSection.tsx';
import { ActionDialog } from './ActionDialog.tsx';
import { BookmarkList, type KeyCommand, type ListView } from './BookmarkList.tsx';
import { DuplicatesView } from './DuplicatesView.tsx';
import { type CurrentTab, openUrl } from './current-tab.ts';
import { useBrowse, useCollections, useSavedPage, useSmartFolders, useTags } from './queries.ts';
import { LoadMore, SearchCount } from './search/SearchStatus.tsx';
import { useLibrarySearch } from './search/use-library-search.ts';
import { OpenAllButton } from './OpenAll.tsx';
import { OverviewView } from './OverviewView.tsx';
import { SitesView } from './SitesView.tsx';
import { keys } from './query-keys.ts';
import { recordOpen } from './record-open.ts';
import { NO_SELECTION, type Selection } from './selection.ts';
import { SmartFolderStatus } from './SmartFolderStatus.tsx';
import { SortSelect } from './SortSelect.tsx';
import { useSmartFolder } from './smart-folder.ts';
import { type DropTarget, type LibraryTool, type Place, SourceNav } from './SourceNav.tsx';
import { useListActions } from './use-list-actions.ts';
import { useStats } from './use-library-counts.ts';
import { DEFAULT_SORT, sortableSource, useSortChoice, viewKeyOf } from './view-choice.ts';

/**
 * The library's lists with their actions, as both layouts show them: the side panel (one column) and the
 * library page (sources beside the list, three views). `tab` is the tab the side panel sits beside (its page's
 * row highlighted, a bookmark opened there); the library page has none, and opens bookmarks in new tabs.
 */

export const SEARCH_DEBOUNCE_MS = 250;

export function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const keyOf = (url: string): string => {
  try {
    return normaliseUrl(url);
  } catch {
    return url;
  }
};

/** Each bookmark's URL key, worked out once: the rows that a scroll brings in ask for it on every render. */
const bookmarkKeys = new WeakMap<Bookmark, string>();
const bookmarkKey = (b: Bookmark): string => {
  let key = bookmarkKeys.get(b);
  if (key === undefined) bookmarkKeys.set(b, (key = keyOf(b.url)));
  return key;
};

/** What a drop of bookmarks onto a source does: the list shown says, since it holds them and their actions. */
export type DropHandler = (target: DropTarget, ids: string[]) => void;

/**
 * The library page's hold on the list shown: the list puts its drop handler here. Where it is given, the
 * lists also take the keyboard's commands and let their bookmarks be dragged.
 */
export const ListDrops = createContext<RefObject<DropHandler | null> | null>(null);

interface ListProps {
  label: string;
  bookmarks: Bookmark[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  tab: CurrentTab | null;
  view?: ListView;
}

/** A list with its selection bar, row actions, dialog and notice line. */
function ActionableList({ label, bookmarks, hasMore, loadingMore, loadMore, tab, view }: ListProps) {
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const actions = useListActions();
  const qc = useQueryClient();
  const current = tab ? keyOf(tab.url) : null;
  // The row highlighted is the one the saved-page index answers for the tab, as the header's "Saved" is.
  const saved = useSavedPage(tab?.url ?? null);
  const savedId = saved.data?.bookmark?.id ?? null;
  // A row of the tab's page that the index did not know: listing it taught the background, so ask again.
  const listedUnknown = tab !== null && saved.isSuccess && savedId === null && bookmarks.some((b) => bookmarkKey(b) === current);
  useEffect(() => {
    if (listedUnknown && tab) void qc.invalidateQueries({ queryKey: keys.savedPage(tab.url) });
  }, [listedUnknown, tab, qc]);
  const selected = bookmarks.filter((b) => selection.ids.has(b.id));
  const many = (action: 'move' | 'tag' | 'untag' | 'favorite' | 'trash', targets = selected) => {
    const run = actions.actOnMany(action, targets);
    if (run) void run.then(() => setSelection(NO_SELECTION));
  };
  // A command on a bookmark of the selection is for the whole selection (editing is one bookmark's).
  const command = (c: KeyCommand, b: Bookmark) => {
    if (c !== 'edit' && selection.ids.has(b.id) && selected.length > 1) many(c);
    else actions.act(c, b);
  };
  const drops = useContext(ListDrops);
  useEffect(() => {
    if (!drops) return;
    drops.current = (target, ids) => {
      const dropped = new Set(ids);
      const targets = bookmarks.filter((b) => dropped.has(b.id));
      if (targets.length > 0) void actions.dropOn(target, targets).then(() => setSelection(NO_SELECTION));
    };
    return () => {
      drops.current = null;
    };
  });

  return (
    <>
      {selected.length > 0 && (
        <div role="toolbar" aria-label="Selected bookmarks" className="flex flex-wrap items-center gap-1 border-b border-zinc-200 px-2 py-1.5 dark:border-zinc-800">
          <span className="mr-auto text-xs font-medium">{selected.length} selected</span>
          <button type="button" className={secondaryButtonClass} disabled={actions.running} onClick={() => many('move')}>
            Move to…
          </button>
          <button type="button" className={secondaryButtonClass} disabled={actions.running} onClick={() => many('tag')}>
            Tag…
          </button>
          <button type="button" className={secondaryButtonClass} disabled={actions.running} onClick={() => many('untag')}>
            Remove tag…
          </button>
          <button type="button" className={secondaryButtonClass} disabled={actions.running} onClick={() => many('favorite')}>
            {selected.every((b) => b.isFavorite) ? 'Unfavourite' : 'Favourite'}
          </button>
          <button type="button" className={secondaryButtonClass} disabled={actions.running} onClick={() => many('trash')}>
            Trash
          </button>
          <OpenAllButton target={{ kind: 'bookmarks', bookmarks: selected.slice(0, MAX_OPEN_ALL).map(({ id, url }) => ({ id, url })) }} count={selected.length} />
          <button type="button" className={quietButtonClass} onClick={() => setSelection(NO_SELECTION)}>
            Clear selection
          </button>
        </div>
      )}
      {bookmarks.length === 0 && !hasMore && !loadingMore ? (
        <p className="p-4 text-center text-sm text-zinc-500">No bookmarks here.</p>
      ) : (
        <BookmarkList
          label={label}
          view={view}
          onCommand={drops ? command : undefined}
          draggable={drops !== null}
          bookmarks={bookmarks}
          hasMore={hasMore}
          loadingMore={loadingMore}
          loadMore={loadMore}
          selection={selection}
          onSelectionChange={setSelection}
          isCurrent={(b) => b.id === savedId}
          onOpen={(b, inNewTab) => {
            recordOpen(b.id);
            void openUrl(b.url, tab, inNewTab);
          }}
          onAction={actions.act}
        />
      )}
      {actions.notice && (
        <div role="status" className={`flex items-center gap-2 border-t px-2 py-1.5 text-xs dark:border-zinc-800 ${actions.notice.error ? 'text-red-700 dark:text-red-400' : ''}`}>
          <span className="min-w-0 flex-1">{actions.notice.text}</span>
          {actions.notice.undo && (
            <button type="button" className={quietButtonClass} onClick={() => actions.undo(actions.notice!.undo!)}>
              Undo
            </button>
          )}
        </div>
      )}
      {actions.dialog && (
        <ActionDialog request={actions.dialog.request} onDone={actions.choose} onCancel={actions.cancelDialog} />
      )}
    </>
  );
}

export function BrowseView({ place, tab, view }: { place: Extract<Place, { kind: 'list' }>; tab: CurrentTab | null; view?: ListView }) {
  const sortable = sortableSource(place.source);
  const [chosen, setSort] = useSortChoice(viewKeyOf(place));
  const sort = sortable ? chosen : DEFAULT_SORT;
  const list = useBrowse(place.source, sort);
  const collections = useCollections();
  const { source } = place;
  // Its kept count may lag behind a move just made: what the list shows counts too.
  const collection = source.kind === 'collection' ? collections.data?.find((c) => c.id === source.id) : undefined;
  const bookmarks = list.data?.pages.flatMap((p) => p.bookmarks) ?? [];
  const note = list.data?.pages.at(-1)?.limitNote;
  const { fetchNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  // A page refused (for the request budget, while it waits for room) leaves the rows loaded so far in place.
  const problem = list.error ?? list.failureReason;
  const alert = problem ? <ErrorAlertWithSignIn error={toClientError(problem)} /> : null;
  // The order is read before the list is asked for: a list is never shown in one order and then another.
  if (sort === undefined) return null;
  const bar = (sortable || note) && (
    <div className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 dark:border-zinc-800">
      <p className="mr-auto min-w-0 text-xs text-zinc-500 dark:text-zinc-400">{note}</p>
      {source.kind === 'collection' && <OpenAllButton target={{ kind: 'collection', id: source.id }} count={Math.max(collection?.bookmarkCount ?? 0, bookmarks.length)} />}
      {sortable && (
        <SortSelect
          sort={sort}
          onChange={(next) => {
            // The side panel's last paint of this list is in the order of its kept first page: not to be shown for another.
            if (next !== DEFAULT_SORT) forgetPanelPaint();
            setSort(next);
          }}
        />
      )}
    </div>
  );
  if (!list.data) return alert ?? <>{bar}<p role="status" className="p-4 text-sm text-zinc-500">Loading…</p></>;
  return (
    <>
      {bar}
      <ActionableList label={place.title} bookmarks={bookmarks} hasMore={list.hasNextPage} loadingMore={list.isFetchingNextPage} loadMore={loadMore} tab={tab} view={view} />
      {alert}
    </>
  );
}

export function SmartFolderView({ place, tab, view }: { place: Extract<Place, { kind: 'smart' }>; tab: CurrentTab | null; view?: ListView }) {
  const folder = useSmartFolder(place.id);
  return (
    <>
      {folder.view && <SmartFolderStatus view={folder.view} evaluating={folder.evaluating} onRefresh={folder.refresh} />}
      {folder.error && <ErrorAlertWithSignIn error={toClientError(folder.error)} />}
      {folder.view && <ActionableList label={place.name} bookmarks={folder.view.bookmarks} hasMore={false} loadingMore={false} loadMore={() => undefined} tab={tab} view={view} />}
    </>
  );
}

/** A search (with its operators) inside the list open now, its count, and more on Load more. */
export function SearchResults({ text, scope, tab, view }: { text: string; scope: BrowseSource; tab: CurrentTab | null; view?: ListView }) {
  const search = useLibrarySearch(text, scope);
  const problem = search.problem ? <ErrorAlertWithSignIn error={toClientError(search.problem)} /> : null;
  if (!search.results) return problem ?? <p role="status" className="p-4 text-sm text-zinc-500">Searching…</p>;
  return (
    <>
      <SearchCount search={search} />
      {search.results.length > 0 && (
        <ActionableList label={`Search results for ${text}`} bookmarks={search.results} hasMore={false} loadingMore={false} loadMore={noMore} tab={tab} view={view} />
      )}
      <LoadMore search={search} />
      {problem}
    </>
  );
}

const noMore = () => undefined;

/** The whole library: where a search looks from anywhere but a list. */
export const LIBRARY: BrowseSource = { kind: 'all' };

/** The list a search looks in: the one open now, unless it is the whole library, a smart folder or a tool. */
export const searchScopeOf = (place: Place | null | undefined, tool: LibraryTool | null): Extract<Place, { kind: 'list' }> | null =>
  tool === null && place?.kind === 'list' && place.source.kind !== 'all' ? place : null;

/** The library's places, with the lists they are read from: asked for only when the places are shown. */
export function LibraryNav({ onOpen, onTool }: { onOpen(place: Place): void; onTool(tool: LibraryTool): void }) {
  const drops = useContext(ListDrops);
  const collections = useCollections();
  const tags = useTags();
  const smartFolders = useSmartFolders();
  // The counts beside All, Favourites and Unsorted are extra: without them (refused, offline) the places still open.
  const stats = useStats();
  const loadError = collections.error ?? tags.error ?? smartFolders.error;
  return (
    <>
      {loadError && <ErrorAlertWithSignIn error={toClientError(loadError)} />}
      <SourceNav collections={collections.data ?? null} tags={tags.data ?? null} smartFolders={smartFolders.data ?? null} stats={stats.data ?? null} onOpen={onOpen} onTool={onTool} onDropBookmarks={drops ? (target, ids) => drops.current?.(target, ids) : undefined} />
    </>
  );
}


export const TOOL_TITLES: Record<LibraryTool, string> = { duplicates: 'Duplicates', 'broken-links': 'Broken links', trash: 'Trash', sites: 'Sites', overview: 'Overview' };

/** A clean-up or overview view in place of a list: Sites and Overview lead on to a search or a list. */
export function ToolView({ tool, onSearch, onOpen }: { tool: LibraryTool; onSearch(text: string): void; onOpen(place: Place): void }) {
  if (tool === 'duplicates') return <DuplicatesView />;
  if (tool === 'sites') return <SitesView onSearch={onSearch} />;
  if (tool === 'overview') return <OverviewView onOpen={(source, title) => onOpen({ kind: 'list', source, title })} onSearch={onSearch} />;
  return <div className="min-h-0 flex-1 overflow-y-auto p-2">{tool === 'trash' ? <TrashSection /> : <BrokenLinksSection />}</div>;
}
