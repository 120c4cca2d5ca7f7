import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Bookmark, PatchBookmarkBody } from '../../lib/api/bookmarks.ts';
import { CollectionPicker } from '../CollectionPicker.tsx';
import { focusRing, inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from '../field-styles.ts';
import { addTags } from '../tag-suggestions.ts';
import { TagInput } from '../TagInput.tsx';
import { type EditValues, editPatch, editValuesOf } from './bookmark-edit.ts';
import { openedText } from './opened-text.ts';
import { useCollections, useTags } from './queries.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';

/** What the Edit dialog asks for: only the changed fields, and whether the cover goes. */
export interface BookmarkEdit {
  patch: PatchBookmarkBody;
  removeCover: boolean;
}

interface Props {
  bookmark: Bookmark;
  onDone(edit: BookmarkEdit): void;
  onCancel(): void;
}

const FIELD_NAMES: Record<string, string> = { url: 'URL', title: 'Title', description: 'Description', note: 'Note', tags: 'Tags' };

/** Every writable field of one bookmark; checked with the API's own schema before anything is sent. */
export function EditBookmarkForm({ bookmark, onDone, onCancel }: Props) {
  const qc = useQueryClient();
  const collections = useCollections().data ?? null;
  const tags = useTags().data ?? null;
  const [values, setValues] = useState<EditValues>(() => editValuesOf(bookmark));
  const [tagText, setTagText] = useState('');
  const [removeCover, setRemoveCover] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const change = (part: Partial<EditValues>) => setValues((now) => ({ ...now, ...part }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A tag typed but not yet made a chip is meant too.
    const all = tagText.trim() ? { ...values, tags: addTags(tags, values.tags, [tagText]) } : values;
    const checked = PatchBookmarkBody.safeParse(editPatch(bookmark, all));
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      setProblem(`${FIELD_NAMES[String(issue.path[0])] ?? 'A field'} ${issue.message}.`);
      return;
    }
    onDone({ patch: checked.data, removeCover });
  };

  const text = (field: 'title' | 'url' | 'description', label: string, type = 'text') => (
    <label className="block space-y-1">
      <span className={labelClass}>{label}</span>
      <input type={type} className={inputClass} value={values[field]} onChange={(e) => change({ [field]: e.target.value })} />
    </label>
  );

  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{openedText(bookmark.clickCount)}</p>
      {text('title', 'Title')}
      {text('url', 'URL', 'url')}
      <label className="block space-y-1">
        <span className={labelClass}>Description</span>
        <textarea className={inputClass} rows={2} value={values.description} onChange={(e) => change({ description: e.target.value })} />
      </label>
      <label className="block space-y-1">
        <span className={labelClass}>Note</span>
        <textarea className={inputClass} rows={3} value={values.note} onChange={(e) => change({ note: e.target.value })} />
      </label>
      <TagInput value={values.tags} onChange={(next) => change({ tags: next })} text={tagText} onTextChange={setTagText} known={tags} />
      <CollectionPicker
        value={values.collectionId}
        onChange={(collectionId) => change({ collectionId })}
        collections={collections}
        onCreate={async (input) => {
          const created = await sendLibrary('createCollection', { name: input.name, ...(input.parentId && { parentId: input.parentId }) });
          void qc.invalidateQueries({ queryKey: keys.collections });
          return created;
        }}
      />
      <label className="flex w-fit items-center gap-2 text-sm">
        <input type="checkbox" checked={values.isFavorite} onChange={(e) => change({ isFavorite: e.target.checked })} className={`size-4 accent-amber-500 ${focusRing}`} />
        Favourite
      </label>
      {bookmark.coverImage && (
        <label className="flex w-fit items-center gap-2 text-sm">
          <input type="checkbox" checked={removeCover} onChange={(e) => setRemoveCover(e.target.checked)} className={`size-4 ${focusRing}`} />
          <img src={bookmark.coverImage} alt="" className="h-8 w-12 rounded object-cover" />
          Remove cover
        </label>
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={primaryButtonClass}>
          Save
        </button>
      </div>
    </form>
  );
}
