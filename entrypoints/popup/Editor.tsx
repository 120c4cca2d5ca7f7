import { useReducer } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { primaryButtonClass } from '../../components/field-styles.ts';
import type { Draft } from '../../lib/storage/items.ts';
import { BookmarkForm } from './BookmarkForm.tsx';
import type { DraftBook } from './drafts.ts';
import { editorActions, useDraftKeeping, useStartupAnswers } from './editor-hooks.ts';
import { editorReducer, initialState } from './editor-state.ts';
import { valuesOf } from './form.ts';
import { Frame } from './Frame.tsx';
import { useSaveShortcut } from './keys.ts';
import type { Startup, TabPage } from './startup.ts';

export interface EditorProps {
  page: TabPage;
  draft: Draft | null;
  lastCollectionId: string | null;
  drafts: DraftBook;
  startup: Pick<Startup, 'account' | 'lookup' | 'tags' | 'collections'>;
}

const HEADINGS = { create: 'Save to Shelf', edit: 'Saved in Shelf', trashed: 'In the trash' } as const;

/**
 * The page as a new bookmark (Save), the saved one (Update, Move to trash) or
 * a trashed one (Save again). Save works from the first frame; the lookup,
 * tags and collections fill in as they arrive.
 */
export function Editor({ page, draft, lastCollectionId, drafts, startup }: EditorProps) {
  const [state, dispatch] = useReducer(editorReducer, { title: page.title, lastCollectionId, draft: draft && valuesOf(draft) }, initialState);
  useStartupAnswers(startup, dispatch);
  useDraftKeeping(drafts, page.url, state);
  const actions = editorActions(state, dispatch, page.url);
  useSaveShortcut(actions.save);
  const { mode } = state;

  return (
    <Frame heading={HEADINGS[mode.kind]}>
      <p
        role="status"
        className={state.status ? 'rounded-md bg-emerald-50 px-3 py-1.5 text-sm font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200' : 'sr-only'}
      >
        {state.status && `✓ ${state.status}`}
      </p>
      {state.error && <ErrorAlert error={state.error} />}
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
        <BookmarkForm state={state} dispatch={dispatch} actions={actions} pageUrl={page.url} />
      )}
    </Frame>
  );
}
