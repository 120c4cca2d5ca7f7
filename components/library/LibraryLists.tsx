import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, createContext, useCallback, useContext, useEffect, useState } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { normaliseUrl } from '../../lib/url.ts';
import { ErrorAlertWithSignIn } from '../account/SignInAgain.tsx';
import { quietButtonClass, secondaryButtonClass } from '../field-styles.ts';
import { BrokenLinksSection } from '../options/broken-links/BrokenLinksSection.tsx';
import { TrashSection } from '../options/trash/TrashSection.tsx';
import { ActionDialog } from './ActionDialog.tsx';
import { BookmarkList, type KeyCommand, type ListView } from './BookmarkList.tsx';
import { DuplicatesView } from './DuplicatesView.tsx';
import { type CurrentTab, openUrl } from './current-tab.ts';
import { SEARCH_FIRST, SEARCH_MOST, useBrowse, useCollections, useSavedPage, useSearch, useSmartFolders, useTags } from './queries.ts';
import { keys } from './query-keys.ts';
import { recordOpen } from './record-open.ts';
import { NO_SELECTION, type Selection } from './selection.ts';
import { SmartFolderStatus } from './SmartFolderStatus.tsx';
import { useSmartFolder } from './smart-folder.ts';
import { type DropTarget, type LibraryTool, type Place, SourceNav } from './SourceNav.tsx';
import { useListActions } from './use-list-actions.ts';

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
  const list = useBrowse(place.source);
  const bookmarks = list.data?.pages.flatMap((p) => p.bookmarks) ?? [];
  const note = list.data?.pages.at(-1)?.limitNote;
  const { fetchNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  // A page refused (for the request budget, while it waits for room) leaves the rows loaded so far in place.
  const problem = list.error ?? list.failureReason;
  const alert = problem ? <ErrorAlertWithSignIn error={toClientError(problem)} /> : null;
  if (!list.data) return alert ?? <p role="status" className="p-4 text-sm text-zinc-500">Loading…</p>;
  return (
    <>
      {note && <p className="border-b border-zinc-200 px-2 py-1.5 text-xs text-zinc-500 dark:border-zinc-800">{note}</p>}
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

/** A search's matches, more of them as the user scrolls to the end, up to the most the API's search answers. */
export function SearchResults({ q, tab, view }: { q: string; tab: CurrentTab | null; view?: ListView }) {
  // Each new text starts again from the first matches.
  const [more, setMore] = useState({ q, limit: SEARCH_FIRST });
  const limit = more.q === q ? more.limit : SEARCH_FIRST;
  const results = useSearch(q, limit);
  const loadMore = useCallback(() => setMore({ q, limit: Math.min(SEARCH_MOST, limit * 2) }), [q, limit]);
  const problem = results.error ?? results.failureReason;
  if (problem && !results.data) return <ErrorAlertWithSignIn error={toClientError(problem)} />;
  if (!results.data) return <p role="status" className="p-4 text-sm text-zinc-500">Searching…</p>;
  const found = results.data;
  // Fewer matches than asked for: that is all of them.
  const full = !results.isPlaceholderData && found.length >= limit;
  return (
    <>
      {full && limit >= SEARCH_MOST && (
        <p className="border-b border-zinc-200 px-2 py-1.5 text-xs text-zinc-500 dark:border-zinc-800">
          Showing the first {found.length} matches; there may be more. Add words to narrow the search.
        </p>
      )}
      <ActionableList
        label={`Search results for ${q}`}
        bookmarks={found}
        hasMore={full && limit < SEARCH_MOST}
        loadingMore={results.isPlaceholderData && results.isFetching}
        loadMore={loadMore}
        tab={tab}
        view={view}
      />
      {problem && <ErrorAlertWithSignIn error={toClientError(problem)} />}
    </>
  );
}

/** The library's places, with the lists they are read from: asked for only when the places are shown. */
export function LibraryNav({ onOpen, onTool }: { onOpen(place: Place): void; onTool(tool: LibraryTool): void }) {
  const drops = useContext(ListDrops);
  const collections = useCollections();
  const tags = useTags();
  const smartFolders = useSmartFolders();
  const loadError = collections.error ?? tags.error ?? smartFolders.error;
  return (
    <>
      {loadError && <ErrorAlertWithSignIn error={toClientError(loadError)} />}
      <SourceNav collections={collections.data ?? null} tags={tags.data ?? null} smartFolders={smartFolders.data ?? null} onOpen={onOpen} onTool={onTool} onDropBookmarks={drops ? (target, ids) => drops.current?.(target, ids) : undefined} />
    </>
  );
}


export const TOOL_TITLES: Record<LibraryTool, string> = { duplicates: 'Duplicates', 'broken-links': 'Broken links', trash: 'Trash' };

/** A clean-up view in place of a list: the same sections the options page shows. */
export function ToolView({ tool }: { tool: LibraryTool }) {
  if (tool === 'duplicates') return <DuplicatesView />;
  return <div className="min-h-0 flex-1 overflow-y-auto p-2">{tool === 'trash' ? <TrashSection /> : <BrokenLinksSection />}</div>;
}
