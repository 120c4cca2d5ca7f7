import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { ErrorAlertWithSignIn } from '../../components/account/SignInAgain.tsx';
import { focusRing, primaryButtonClass, quietButtonClass, secondaryButtonClass } from '../../components/field-styles.ts';
import { ActionDialog } from '../../components/library/ActionDialog.tsx';
import { BookmarkList } from '../../components/library/BookmarkList.tsx';
import { useBrowse, useCollections, useSavedPage, useSmartFolders, useTags } from '../../components/library/queries.ts';
import { SearchBox } from '../../components/library/search/SearchBox.tsx';
import { LoadMore, SearchCount } from '../../components/library/search/SearchStatus.tsx';
import { useLibrarySearch } from '../../components/library/search/use-library-search.ts';
import { keys } from '../../components/library/query-keys.ts';
import { sendLibrary } from '../../components/library/send.ts';
import { recordOpen } from '../../components/library/record-open.ts';
import { NO_SELECTION, type Selection } from '../../components/library/selection.ts';
import { SmartFolderStatus } from '../../components/library/SmartFolderStatus.tsx';
import { useSmartFolder } from '../../components/library/smart-folder.ts';
import { BrokenLinksSection } from '../../components/options/broken-links/BrokenLinksSection.tsx';
import { DuplicatesView } from '../../components/library/DuplicatesView.tsx';
import { OverviewView } from '../../components/library/OverviewView.tsx';
import { SitesView } from '../../components/library/SitesView.tsx';
import { type LibraryTool, type Place, SourceNav } from '../../components/library/SourceNav.tsx';
import { TrashSection } from '../../components/options/trash/TrashSection.tsx';
import { useListActions } from '../../components/library/use-list-actions.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { BrowseSource } from '../../lib/messaging/library-requests.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { panelPlaceItem } from '../../lib/storage/library-items.ts';
import { normaliseUrl } from '../../lib/url.ts';
import { type CurrentTab, openUrl, useCurrentTab } from './current-tab.ts';
import { noteOpening } from './opening-reads.ts';

const SEARCH_DEBOUNCE_MS = 250;

function useDebounced(value: string, ms: number): string {
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

/** The current tab's page: saved (its row is highlighted in the lists) or a button to save it. */
function CurrentPage({ tab }: { tab: CurrentTab | null }) {
  const qc = useQueryClient();
  const saved = useSavedPage(tab?.url ?? null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  if (!tab || !/^https?:\/\//.test(tab.url)) return null;

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const result = await sendLibrary('saveBookmark', { bookmark: { url: tab.url, ...(tab.title.trim() && { title: tab.title.trim() }) } });
      qc.setQueryData(keys.savedPage(tab.url), result);
      void qc.invalidateQueries({ queryKey: keys.bookmarkLists });
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="space-y-1 border-b border-zinc-200 px-2 py-2 text-sm dark:border-zinc-800">
      <div className="flex items-center justify-between gap-2">
        <p className="min-w-0 truncate text-zinc-600 dark:text-zinc-400">{tab.title || tab.url}</p>
        {saved.data?.bookmark ? (
          <span className="shrink-0 text-xs font-medium text-green-700 dark:text-green-400">Saved</span>
        ) : saved.data?.queued ? (
          <span className="shrink-0 text-xs font-medium text-amber-700 dark:text-amber-400">{saved.data.queued.refused ? 'Not saved' : 'Waiting to be saved'}</span>
        ) : (
          <button type="button" className={primaryButtonClass} disabled={saving || saved.isPending} onClick={() => void save()}>
            {saving ? 'Saving…' : 'Save this page'}
          </button>
        )}
      </div>
      {error !== null && <ErrorAlertWithSignIn error={toClientError(error)} />}
    </div>
  );
}

interface ListProps {
  label: string;
  bookmarks: Bookmark[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  tab: CurrentTab | null;
}

/** A list with its selection bar, row actions, dialog and notice line. */
function ActionableList({ label, bookmarks, hasMore, loadingMore, loadMore, tab }: ListProps) {
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
  const many = (action: 'move' | 'tag' | 'untag' | 'favorite' | 'trash') => {
    const run = actions.actOnMany(action, selected);
    if (run) void run.then(() => setSelection(NO_SELECTION));
  };

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

function BrowseView({ place, tab }: { place: Extract<Place, { kind: 'list' }>; tab: CurrentTab | null }) {
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
      <ActionableList label={place.title} bookmarks={bookmarks} hasMore={list.hasNextPage} loadingMore={list.isFetchingNextPage} loadMore={loadMore} tab={tab} />
      {alert}
    </>
  );
}

function SmartFolderView({ place, tab }: { place: Extract<Place, { kind: 'smart' }>; tab: CurrentTab | null }) {
  const folder = useSmartFolder(place.id);
  return (
    <>
      {folder.view && <SmartFolderStatus view={folder.view} evaluating={folder.evaluating} onRefresh={folder.refresh} />}
      {folder.error && <ErrorAlertWithSignIn error={toClientError(folder.error)} />}
      {folder.view && <ActionableList label={place.name} bookmarks={folder.view.bookmarks} hasMore={false} loadingMore={false} loadMore={() => undefined} tab={tab} />}
    </>
  );
}

/** A search (with its operators) inside the list open now, its count, and more on Load more. */
function SearchResults({ text, scope, tab }: { text: string; scope: BrowseSource; tab: CurrentTab | null }) {
  const search = useLibrarySearch(text, scope);
  const problem = search.problem ? <ErrorAlertWithSignIn error={toClientError(search.problem)} /> : null;
  if (!search.results) return problem ?? <p role="status" className="p-4 text-sm text-zinc-500">Searching…</p>;
  return (
    <>
      <SearchCount search={search} />
      {search.results.length > 0 && (
        <ActionableList label={`Search results for ${text}`} bookmarks={search.results} hasMore={false} loadingMore={false} loadMore={noMore} tab={tab} />
      )}
      <LoadMore search={search} />
      {problem}
    </>
  );
}

const noMore = () => undefined;
const LIBRARY: BrowseSource = { kind: 'all' };

/** The library's places, with the lists they are read from: asked for only when the places are shown. */
function LibraryNav({ onOpen, onTool }: { onOpen(place: Place): void; onTool(tool: LibraryTool): void }) {
  const collections = useCollections();
  const tags = useTags();
  const smartFolders = useSmartFolders();
  const loadError = collections.error ?? tags.error ?? smartFolders.error;
  return (
    <>
      {loadError && <ErrorAlertWithSignIn error={toClientError(loadError)} />}
      <SourceNav collections={collections.data ?? null} tags={tags.data ?? null} smartFolders={smartFolders.data ?? null} onOpen={onOpen} onTool={onTool} />
    </>
  );
}

/** The place shown last (undefined until it is read, when not given): the panel opens where the user left it. */
function useRememberedPlace(opening: Place | null | undefined): [Place | null | undefined, (place: Place | null) => void] {
  const [place, setPlace] = useState<Place | null | undefined>(opening);
  useEffect(() => {
    if (opening !== undefined) return;
    void panelPlaceItem.get().then((kept) => setPlace((now) => (now === undefined ? kept : now)));
  }, [opening]);
  const choose = (next: Place | null) => {
    setPlace(next);
    void panelPlaceItem.set(next);
    noteOpening(window, next);
  };
  return [place, choose];
}

/** An options page section shown in the panel, scrolling on its own under the header. */
const ScrollingSection = ({ children }: { children: ReactNode }) => <div className="min-h-0 flex-1 overflow-y-auto p-2">{children}</div>;

const TOOL_TITLES: Record<LibraryTool, string> = { duplicates: 'Duplicates', 'broken-links': 'Broken links', trash: 'Trash', sites: 'Sites', overview: 'Overview' };

/** Shelf's side panel: browse the library, search it, act on bookmarks, with the current tab's page in view. */
export function App({ opening }: { /** The place main.tsx read to open on; when not given, the panel reads it. */ opening?: Place | null }) {
  const tab = useCurrentTab();
  const [place, setPlace] = useRememberedPlace(opening);
  const [tool, setTool] = useState<LibraryTool | null>(null);
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  // A search inside a list searches that list; from a smart folder or a tool, the whole library.
  const inList = tool === null && place?.kind === 'list' && place.source.kind !== 'all' ? place : null;
  const open = (next: Place | null) => {
    setTool(null);
    setPlace(next);
  };
  const title = tool !== null ? TOOL_TITLES[tool] : place === null || place === undefined ? null : place.kind === 'list' ? place.title : place.name;

  let body;
  if (q) body = <SearchResults text={q} scope={inList?.source ?? LIBRARY} tab={tab} />;
  else if (tool === 'duplicates') body = <DuplicatesView />;
  else if (tool === 'sites') body = <SitesView onSearch={setTyped} />;
  else if (tool === 'overview') body = <OverviewView onOpen={(source, listTitle) => open({ kind: 'list', source, title: listTitle })} onSearch={setTyped} />;
  else if (tool === 'broken-links') body = <ScrollingSection><BrokenLinksSection /></ScrollingSection>;
  else if (tool === 'trash') body = <ScrollingSection><TrashSection /></ScrollingSection>;
  else if (place === undefined) body = null;
  else if (place === null) body = <LibraryNav onOpen={open} onTool={setTool} />;
  else if (place.kind === 'list') body = <BrowseView key={JSON.stringify(place.source)} place={place} tab={tab} />;
  else body = <SmartFolderView key={place.id} place={place} tab={tab} />;

  return (
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="space-y-2 border-b border-zinc-200 p-2 dark:border-zinc-800">
        <h1 className="text-sm font-semibold">Shelf</h1>
        <SearchBox value={typed} onChange={setTyped} scopeTitle={inList?.title ?? null} />
      </header>
      <CurrentPage tab={tab} />
      {title !== null && !q && (
        <div className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1.5 dark:border-zinc-800">
          <button type="button" className={`${quietButtonClass} ${focusRing}`} onClick={() => open(null)}>
            ← Library
          </button>
          <h2 className="min-w-0 truncate text-sm font-semibold">{title}</h2>
        </div>
      )}
      {body}
    </div>
  );
}
