import type { Dispatch } from 'react';
import { openedText } from '../../components/library/opened-text.ts';
import { CollectionPicker } from '../../components/CollectionPicker.tsx';
import { dangerButtonClass, focusRing, primaryButtonClass } from '../../components/field-styles.ts';
import { TagInput } from '../../components/TagInput.tsx';
import { useEarlyValue } from '../../components/use-early-value.ts';
import { shownImage } from '../../lib/dom/shown-values.ts';
import type { EditorActions } from './editor-hooks.ts';
import { type EditorAction, type EditorState, knownTags } from './editor-state.ts';
import type { FormValues } from './form.ts';
import { useSaveShortcutLabel } from './keys.ts';
import { TextField } from './TextField.tsx';

interface BookmarkFormProps {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  actions: EditorActions;
  pageUrl: string;
}

/** The fields, with Save for a new bookmark or Update and Move to trash for a saved one. */
export function BookmarkForm({ state, dispatch, actions, pageUrl }: BookmarkFormProps) {
  const { mode, values, busy } = state;
  const cover = mode.kind === 'edit' ? shownImage(mode.bookmark.coverImage) : null;
  const change = (next: Partial<FormValues>) => dispatch({ type: 'change', values: next });
  const favoriteRef = useEarlyValue((field: HTMLInputElement) => field.checked, values.isFavorite, (isFavorite) => change({ isFavorite }));
  const shortcut = useSaveShortcutLabel();
  const submitLabel = mode.kind === 'edit' ? (busy === 'update' ? 'Updating…' : 'Update') : busy === 'save' ? 'Saving…' : 'Save';

  return (
    <form
      // Submitting goes nowhere without the app: a click before React has the form (and before popup-early.js could hold it) cannot reload the popup.
      method="dialog"
      className="space-y-3"
      aria-busy={busy !== null}
      onSubmit={(e) => {
        e.preventDefault();
        actions.save();
      }}
    >
      <TextField label="Title" value={values.title} maxLength={2000} onChange={(title) => change({ title })} />
      <TextField label="URL" value={mode.kind === 'edit' ? mode.bookmark.url : pageUrl} readOnly />
      {mode.kind === 'edit' && <p className="text-xs text-zinc-600 dark:text-zinc-400">{openedText(mode.bookmark.clickCount)}</p>}
      {mode.kind === 'edit' && mode.bookmark.coverImage && (
        <div className="flex items-center gap-2">
          {cover && <img src={cover} alt="Cover" className="h-12 w-20 rounded object-cover" />}
          <button type="button" onClick={() => void actions.removeCover(mode.bookmark)} disabled={busy !== null} className={dangerButtonClass}>
            Remove cover
          </button>
        </div>
      )}
      <TagInput
        value={values.tags}
        onChange={(tags) => change({ tags })}
        text={state.tagText}
        onTextChange={(text) => dispatch({ type: 'typeTag', text })}
        known={knownTags(state)}
        autoFocus
      />
      <CollectionPicker
        value={values.collectionId}
        onChange={(collectionId) => change({ collectionId })}
        collections={state.collections}
        onCreate={actions.createCollection}
      />
      <TextField label="Note" value={values.note} maxLength={10_000} onChange={(note) => change({ note })} multiline />
      <label className="flex w-fit items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
        <input
          type="checkbox"
          ref={favoriteRef}
          checked={values.isFavorite}
          onChange={(e) => change({ isFavorite: e.target.checked })}
          className={`size-4 accent-amber-500 ${focusRing}`}
        />
        Favorite
      </label>
      <div className="flex items-center justify-between gap-2 pt-1">
        {mode.kind === 'edit' ? (
          <button type="button" onClick={() => void actions.trash(mode.bookmark)} disabled={busy !== null} className={dangerButtonClass}>
            {busy === 'trash' ? 'Moving to trash…' : 'Move to trash'}
          </button>
        ) : (
          <span />
        )}
        <button type="submit" disabled={!actions.canSave} className={`min-w-24 ${primaryButtonClass}`}>
          {submitLabel}
        </button>
      </div>
      <p className="text-right text-[11px] text-zinc-500 dark:text-zinc-400">{shortcut} saves · Esc closes</p>
    </form>
  );
}
