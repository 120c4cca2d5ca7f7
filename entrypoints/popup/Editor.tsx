import { useReducer } from 'react';
import { ErrorAlertWithSignIn } from '../../components/account/SignInAgain.tsx';
import { primaryButtonClass } from '../../components/field-styles.ts';
import { BookmarkForm } from './BookmarkForm.tsx';
import { editorActions, useDraftKeeping, useKeptArrival, useStartupAnswers, useTabArrival } from './editor-hooks.ts';
import { NOTHING_KEPT, editorReducer, initialState, keptValues } from './editor-state.ts';
import { Frame, SaveAllTabsButton } from './Frame.tsx';
import { useSaveShortcut } from './keys.ts';
import { QuickSaveLine } from './QuickSaveLine.tsx';
import type { Kept, Startup, TabPage } from './startup.ts';

export interface EditorProps {
  /** The tab; undefined until the browser answers. */
  page: TabPage | undefined;
  /** What this device kept for the page; undefined until storage answers. */
  kept: Kept | undefined;
  startup: Pick<Startup, 'page' | 'account' | 'lookup' | 'tags' | 'collections'>;
  onSaveAllTabs(): void;
}

const HEADINGS = { create: 'Save to Shelf', edit: 'Saved in Shelf', trashed: 'In the trash' } as const;

/**
 * The page as a new bookmark (Save), the saved one (Update, Move to trash) or
 * a trashed one (Save again). Save works from the first frame; the tab, draft,
 * last collection, lookup, tags and collections fill in as they arrive.
 */
export function Editor({ page, kept, startup, onSaveAllTabs }: EditorProps) {
  const [state, dispatch] = useReducer(editorReducer, { title: page?.title ?? '', ...(kept ? keptValues(kept) : NOTHING_KEPT) }, initialState);
  useStartupAnswers(startup, dispatch);
  useTabArrival(page, dispatch);
  useKeptArrival(kept, dispatch);
  // The drafts come only after the tab (they are looked up by its URL).
  useDraftKeeping(kept?.drafts, page?.url ?? '', state);
  const actions = editorActions(state, dispatch, page, startup.page);
  useSaveShortcut(actions.save);
  const { mode } = state;

  return (
    <Frame heading={HEADINGS[mode.kind]}>
      <p
        role="status"
        className={
          state.status
            ? `rounded-md px-3 py-1.5 text-sm font-medium ${state.status[0] === '⏳' ? 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200' : 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'}`
            : 'sr-only'
        }
      >
        {state.status}
      </p>
      {state.error && <ErrorAlertWithSignIn error={state.error} />}
      {mode.kind === 'trashed' ? (
        <div className="space-y-3">
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            “{mode.bookmark.title || mode.bookmark.url}” is in the trash, where it stays for 30 days unless you save it again.
          </p>
          <div className="flex justify-end">
            <button type="button" autoFocus onClick={actions.save} disabled={!actions.canSave} className={primaryButtonClass}>
              {state.busy === 'save' ? 'Saving…' : 'Save again'}
            </button>
          </div>
        </div>
      ) : (
        <BookmarkForm state={state} dispatch={dispatch} actions={actions} pageUrl={page?.url ?? ''} />
      )}
      <QuickSaveLine target={kept?.quickSaveTarget} collections={state.collections} />
      <SaveAllTabsButton onClick={onSaveAllTabs} />
    </Frame>
  );
}
