import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorAlertWithSignIn } from '../../components/account/SignInAgain.tsx';
import { focusRing, primaryButtonClass, quietButtonClass } from '../../components/field-styles.ts';
import { type CurrentTab, useCurrentTab } from '../../components/library/current-tab.ts';
import { BrowseView, LIBRARY, LibraryNav, SEARCH_DEBOUNCE_MS, SearchResults, SmartFolderView, TOOL_TITLES, ToolView, searchScopeOf, useDebounced } from '../../components/library/LibraryLists.tsx';
import { SearchBox } from '../../components/library/search/SearchBox.tsx';
import { OpenLibraryLink } from '../../components/library/OpenLibraryLink.tsx';
import { useSavedPage } from '../../components/library/queries.ts';
import { keys } from '../../components/library/query-keys.ts';
import { sendLibrary } from '../../components/library/send.ts';
import type { LibraryTool, Place } from '../../components/library/SourceNav.tsx';
import { toClientError } from '../../lib/client/errors.ts';
import { panelPlaceItem } from '../../lib/storage/library-items.ts';
import { noteOpening } from './opening-reads.ts';

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

/** Shelf's side panel: browse the library, search it, act on bookmarks, with the current tab's page in view. */
export function App({ opening }: { /** The place main.tsx read to open on; when not given, the panel reads it. */ opening?: Place | null }) {
  const tab = useCurrentTab();
  const [place, setPlace] = useRememberedPlace(opening);
  const [tool, setTool] = useState<LibraryTool | null>(null);
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  // A search inside a list searches that list; from a smart folder or a tool, the whole library.
  const inList = searchScopeOf(place, tool);
  const open = (next: Place | null) => {
    setTool(null);
    setPlace(next);
  };
  const title = tool !== null ? TOOL_TITLES[tool] : place === null || place === undefined ? null : place.kind === 'list' ? place.title : place.name;

  let body;
  if (q) body = <SearchResults text={q} scope={inList?.source ?? LIBRARY} tab={tab} />;
  else if (tool !== null) body = <ToolView tool={tool} onSearch={setTyped} onOpen={open} />;
  else if (place === undefined) body = null;
  else if (place === null) body = <LibraryNav onOpen={open} onTool={setTool} />;
  else if (place.kind === 'list') body = <BrowseView key={JSON.stringify(place.source)} place={place} tab={tab} />;
  else body = <SmartFolderView key={place.id} place={place} tab={tab} />;

  return (
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="space-y-2 border-b border-zinc-200 p-2 dark:border-zinc-800">
        <div className="flex items-center justify-between gap-2">
          <h1 className="text-sm font-semibold">Shelf</h1>
          <OpenLibraryLink />
        </div>
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
