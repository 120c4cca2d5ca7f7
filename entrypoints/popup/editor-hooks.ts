import { type Dispatch, useEffect, useMemo, useRef, useState } from 'react';
import { send } from '../../components/messenger.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection, CreateCollectionBody } from '../../lib/api/collections.ts';
import { ClientError, toClientError } from '../../lib/client/errors.ts';
import type { MessageOutput } from '../../lib/messaging/protocol.ts';
import type { DraftBook } from './drafts.ts';
import { type EditorAction, type EditorState, committed, keptValues } from './editor-state.ts';
import { createBody, editsOf, patchOf, valuesOf } from './form.ts';
import type { Kept, PageState, Settled, Startup, TabPage } from './startup.ts';

/** The background's answers asked for at startup, into the editor as they arrive; a failure shows once. */
export function useStartupAnswers(startup: Pick<Startup, 'account' | 'lookup' | 'tags' | 'collections'>, dispatch: Dispatch<EditorAction>): void {
  useEffect(() => {
    let live = true;
    const follow = <T>(answer: Promise<Settled<T>>, action?: (value: T) => EditorAction | null) =>
      void answer.then((r) => {
        if (!live) return;
        const next = !r.ok ? { type: 'loadFailed' as const, error: r.error } : action?.(r.value);
        if (next) dispatch(next);
      });
    // Signed out: the App shows that instead of the editor. A token the server refused is said at once, with the way out.
    follow(startup.account, ({ tokenProblem }) => tokenProblem && { type: 'loadFailed', error: new ClientError(tokenProblem.code, tokenProblem.message) });
    follow(startup.lookup, (found) => ({ type: 'lookedUp', bookmark: found?.bookmark ?? null }));
    follow(startup.lookup, (found) => (found?.queued ? { type: 'queued', queued: found.queued } : null));
    follow(startup.tags, (tags) => ({ type: 'tagsLoaded', tags }));
    follow(startup.collections, (collections) => ({ type: 'collectionsLoaded', collections }));
    return () => {
      live = false;
    };
  }, [startup, dispatch]);
}

/**
 * The tab's title into the form in the same render that the tab arrives in (the
 * URL line shows it from the props), rather than one render later from an effect.
 */
export function useTabArrival(page: TabPage | undefined, dispatch: Dispatch<EditorAction>): void {
  const [seen, setSeen] = useState(page);
  if (page !== seen) {
    setSeen(page);
    if (page) dispatch({ type: 'tabKnown', title: page.title });
  }
}

/** What this device kept for the page, into the editor when storage answers after the first frame (it was in the first frame otherwise). */
export function useKeptArrival(kept: Kept | undefined, dispatch: Dispatch<EditorAction>): void {
  const atFirstFrame = useRef(kept);
  useEffect(() => {
    if (kept && kept !== atFirstFrame.current) dispatch({ type: 'kept', kept: keptValues(kept) });
  }, [kept, dispatch]);
}

/**
 * Every edit goes to the page's draft (written after a pause, or at once when the
 * popup closes); a save removes it. Edits made before the drafts are read are kept once they are.
 */
export function useDraftKeeping(drafts: DraftBook | undefined, url: string, state: EditorState): void {
  const { values, edited, restored, saves, mode, draftOver } = state;
  const over = useMemo(() => (mode.kind === 'edit' ? valuesOf(mode.bookmark) : draftOver), [mode, draftOver]);
  useEffect(() => {
    // A restored draft is written again only once it changes: its age counts from the last edit.
    if (drafts && edited && values !== restored) drafts.put(url, { ...values, updatedAt: Date.now(), over });
  }, [drafts, url, values, edited, restored, over]);
  useEffect(() => {
    if (drafts && saves > 0 && !edited) void drafts.remove(url);
  }, [drafts, url, saves, edited]);
  useEffect(() => {
    if (!drafts) return;
    const flush = () => drafts.flush();
    const onHidden = () => document.visibilityState === 'hidden' && flush();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHidden);
      flush();
    };
  }, [drafts]);
}

export interface EditorActions {
  /** Save (one request with everything), Update (only what changed) or Save again, as the view offers. */
  save(): void;
  /** False when Update would send nothing. */
  canSave: boolean;
  trash(bookmark: Bookmark): Promise<void>;
  removeCover(bookmark: Bookmark): Promise<void>;
  createCollection(input: CreateCollectionBody): Promise<Collection>;
}

/**
 * The page a save is for: at once when the tab is known, else when the browser
 * answers. Never when the tab cannot be saved: the popup then shows another view.
 */
async function pageToSave(page: TabPage | undefined, answer: Promise<PageState>): Promise<TabPage> {
  if (page) return page;
  const state = await answer;
  if (state.kind !== 'page') return new Promise<never>(() => undefined);
  return state.page;
}

export function editorActions(state: EditorState, dispatch: Dispatch<EditorAction>, page: TabPage | undefined, pageAnswer: Promise<PageState>): EditorActions {
  const { mode, busy } = state;
  const patch = mode.kind === 'edit' ? patchOf(committed(state), mode.bookmark) : null;
  const canSave = busy === null && (patch === null || Object.keys(patch).length > 0);

  const finish = async (request: Promise<Pick<MessageOutput<'saveBookmark'>, 'bookmark' | 'queued' | 'existed'>>, status: string) => {
    try {
      const answer = await request;
      const done = answer.existed ? '✓ Already in Shelf: only your changes were made to it' : status;
      dispatch(answer.bookmark ? { type: 'saved', bookmark: answer.bookmark, status: done } : { type: 'queued', queued: answer.queued! });
    } catch (err) {
      dispatch({ type: 'failed', error: toClientError(err) });
    }
  };

  return {
    canSave,
    save() {
      if (!canSave) return;
      if (mode.kind === 'edit' && patch) {
        dispatch({ type: 'start', busy: 'update' });
        void finish(
          send('updateBookmark', { id: mode.bookmark.id, patch }).then((bookmark) => ({ bookmark, queued: null })),
          '✓ Updated',
        );
        return;
      }
      dispatch({ type: 'start', busy: 'save' });
      const values = committed(state);
      // Saving a trashed bookmark's own URL again restores it rather than making another.
      const request =
        mode.kind === 'trashed'
          ? send('saveBookmark', { bookmark: createBody(mode.bookmark.url, values) })
          : pageToSave(page, pageAnswer).then((target) =>
              // Clicked before the tab was known, the title field was still empty: the tab's title is the one shown next.
              send('saveBookmark', {
                bookmark: createBody(target.url, page || values.title.trim() !== '' ? values : { ...values, title: target.title }),
                edits: editsOf(values, target.title),
                ...(target.tabId !== undefined && { tabId: target.tabId }),
              }),
            );
      void finish(request, '✓ Saved');
    },
    async trash(bookmark) {
      dispatch({ type: 'start', busy: 'trash' });
      try {
        dispatch({ type: 'trashed', bookmark: await send('trashBookmark', { id: bookmark.id }) });
      } catch (err) {
        dispatch({ type: 'failed', error: toClientError(err) });
      }
    },
    async removeCover(bookmark) {
      dispatch({ type: 'start', busy: 'cover' });
      try {
        await send('removeCover', { id: bookmark.id });
        dispatch({ type: 'coverRemoved' });
      } catch (err) {
        dispatch({ type: 'failed', error: toClientError(err) });
      }
    },
    async createCollection(input) {
      const collection = await send('createCollection', input);
      dispatch({ type: 'collectionCreated', collection });
      return collection;
    },
  };
}
