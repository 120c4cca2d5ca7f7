import { useEffect, useRef, useState } from 'react';
import { type DropHandler, BrowseView, LIBRARY, LibraryNav, ListDrops, SEARCH_DEBOUNCE_MS, SearchResults, SmartFolderView, TOOL_TITLES, ToolView, searchScopeOf, useDebounced } from '../../components/library/LibraryLists.tsx';
import { SearchBox } from '../../components/library/search/SearchBox.tsx';
import type { LibraryTool, Place } from '../../components/library/SourceNav.tsx';
import { useViewChoice, viewKeyOf } from '../../components/library/view-choice.ts';
import { ViewSwitch } from '../../components/library/ViewSwitch.tsx';
import { OPENING_SOURCE } from './opening-reads.ts';

const ALL: Place = { kind: 'list', source: OPENING_SOURCE, title: 'All bookmarks' };

/**
 * Shelf's library in a full tab: the sources on the left, the chosen one's bookmarks on the right in the view
 * the user picked for it. The same lists, rows and actions as the side panel (components/library/).
 */
export function App() {
  const [place, setPlace] = useState<Place>(ALL);
  const [tool, setTool] = useState<LibraryTool | null>(null);
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const [view, setView] = useViewChoice(viewKeyOf(q ? 'search' : place));
  // A search inside a list searches that list; from a smart folder or a tool, the whole library.
  const inList = searchScopeOf(place, tool);
  const drops = useRef<DropHandler | null>(null);
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // "/" goes to the search box from anywhere but a field, where it is typed.
    const onKey = (event: KeyboardEvent) => {
      const typing = event.target instanceof HTMLElement && (event.target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(event.target.tagName));
      if (event.key !== '/' || typing || event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      search.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const open = (next: Place) => {
    setTool(null);
    setTyped('');
    setPlace(next);
  };
  const openTool = (next: LibraryTool) => {
    setTyped('');
    setTool(next);
  };
  const title = q ? `Search results for ${q}` : tool !== null ? TOOL_TITLES[tool] : place.kind === 'list' ? place.title : place.name;

  let body = null;
  if (tool !== null && !q) body = <ToolView tool={tool} onSearch={setTyped} onOpen={open} />;
  else if (view === undefined) body = null;
  else if (q) body = <SearchResults text={q} scope={inList?.source ?? LIBRARY} tab={null} view={view} />;
  else if (place.kind === 'list') body = <BrowseView key={JSON.stringify(place.source)} place={place} tab={null} view={view} />;
  else body = <SmartFolderView key={place.id} place={place} tab={null} view={view} />;

  return (
    <ListDrops value={drops}>
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex items-center gap-4 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
        <h1 className="shrink-0 text-base font-semibold">Shelf library</h1>
        <div className="w-full max-w-xl">
          <SearchBox value={typed} onChange={setTyped} scopeTitle={inList?.title ?? null} inputRef={search} />
        </div>
      </header>
      <div className="flex min-h-0 flex-1">
        <aside className="flex w-64 shrink-0 flex-col border-r border-zinc-200 dark:border-zinc-800">
          <LibraryNav onOpen={open} onTool={openTool} />
        </aside>
        <main className="flex min-w-0 flex-1 flex-col">
          <div className="flex items-center gap-2 border-b border-zinc-200 px-4 py-1.5 dark:border-zinc-800">
            <h2 className="mr-auto min-w-0 truncate text-sm font-semibold">{title}</h2>
            {view !== undefined && (tool === null || q) && <ViewSwitch view={view} onChange={setView} />}
          </div>
          {body}
        </main>
      </div>
    </div>
    </ListDrops>
  );
}
