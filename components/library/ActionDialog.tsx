import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { CollectionPicker } from '../CollectionPicker.tsx';
import { Dialog } from '../Dialog.tsx';
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from '../field-styles.ts';
import { useCollections, useTags } from './queries.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';
import { findTag, hasTag, parseTagInput } from '../tag-suggestions.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type BookmarkEdit, EditBookmarkForm } from './EditBookmarkForm.tsx';

export type DialogChoice =
  | { kind: 'move'; collectionId: string | null }
  | { kind: 'tag'; names: string[] }
  | { kind: 'untag'; tag: { id: string; name: string } }
  | ({ kind: 'edit' } & BookmarkEdit);

export type DialogRequest =
  | { kind: 'move'; count: number; collectionId: string | null }
  | { kind: 'tag'; count: number }
  | { kind: 'untag'; count: number; names: string[] }
  | { kind: 'edit'; bookmark: Bookmark };

interface Props {
  request: DialogRequest;
  onDone(choice: DialogChoice): void;
  onCancel(): void;
}

const VERBS = { move: 'Move', tag: 'Tag', untag: 'Remove a tag from' } as const;
const heading = (r: DialogRequest) => (r.kind === 'edit' ? 'Edit bookmark' : `${VERBS[r.kind]} ${r.count === 1 ? 'bookmark' : `${r.count} bookmarks`}`);

/** Several names typed at once, separated by commas: each as the API will name it, once. */
const typedNames = (text: string): string[] => {
  const names: string[] = [];
  for (const name of text.split(',').map(parseTagInput)) if (name !== null && !hasTag(names, name)) names.push(name);
  return names;
};

/** The small form behind "Move…", "Tag…" and "Edit…", for one bookmark or a selection, in the shared modal dialog. */
export function ActionDialog({ request, onDone, onCancel }: Props) {
  if (request.kind === 'edit') {
    return (
      <Dialog title={heading(request)} onClose={onCancel}>
        <EditBookmarkForm bookmark={request.bookmark} onDone={(edit) => onDone({ kind: 'edit', ...edit })} onCancel={onCancel} />
      </Dialog>
    );
  }
  return <ChoiceForm request={request} onDone={onDone} onCancel={onCancel} />;
}

function ChoiceForm({ request, onDone, onCancel }: Props & { request: Exclude<DialogRequest, { kind: 'edit' }> }) {
  const id = useId();
  // Read when a dialog opens, not with the list: opening a list waits for nothing else.
  const qc = useQueryClient();
  const collections = useCollections().data ?? null;
  const tags = useTags().data ?? null;
  const [collectionId, setCollectionId] = useState(request.kind === 'move' ? request.collectionId : null);
  const [tagName, setTagName] = useState('');
  const [untag, setUntag] = useState(request.kind === 'untag' ? (request.names[0] ?? '') : '');
  const [problem, setProblem] = useState<string | null>(null);

  /** A tag added a moment ago may not be in the list read before: the list is read again once before giving up. */
  const removeTag = async () => {
    let tag = tags && findTag(tags, untag);
    if (!tag) {
      const fresh = await sendLibrary('listTags', { refresh: true }).catch(() => null);
      if (fresh) qc.setQueryData(keys.tags, fresh);
      tag = findTag(fresh ?? [], untag);
    }
    if (tag) onDone({ kind: 'untag', tag: { id: tag.id, name: tag.name } });
    else setProblem(`The tag “${untag}” is no longer in your library.`);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (request.kind === 'move') onDone({ kind: 'move', collectionId });
    else if (request.kind === 'untag') void removeTag();
    else {
      const names = typedNames(tagName);
      if (names.length > 0) onDone({ kind: 'tag', names });
      else setProblem('Type a tag name: letters, digits and / for levels.');
    }
  };

  let fields: ReactNode;
  if (request.kind === 'move') {
    fields = (
      <CollectionPicker
        value={collectionId}
        onChange={setCollectionId}
        collections={collections}
        onCreate={async (input) => {
          const created = await sendLibrary('createCollection', { name: input.name, ...(input.parentId && { parentId: input.parentId }) });
          void qc.invalidateQueries({ queryKey: keys.collections });
          return created;
        }}
      />
    );
  } else if (request.kind === 'untag') {
    fields = (
      <div className="space-y-1">
        {/* Labelled by reference, not wrapped: a <select> inside its label adds its chosen option to the field's name. */}
        <label htmlFor={`${id}-untag`} className={labelClass}>
          Tag to remove
        </label>
        <select id={`${id}-untag`} className={inputClass} value={untag} onChange={(e) => setUntag(e.target.value)}>
          {request.names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
    );
  } else {
    fields = (
      <div className="space-y-1">
        {/* The hint describes the field rather than naming it: the field's name stays "Tag name". */}
        <label htmlFor={`${id}-name`} className={labelClass}>
          Tag name
        </label>
        <span id={`${id}-hint`} className="block text-xs text-zinc-500 dark:text-zinc-400">
          Several at once: separate them with commas.
        </span>
        <input id={`${id}-name`} aria-describedby={`${id}-hint`} className={inputClass} value={tagName} onChange={(e) => setTagName(e.target.value)} list={`${id}-tags`} required />
        <datalist id={`${id}-tags`}>{tags?.map((t) => <option key={t.id} value={t.name} />)}</datalist>
      </div>
    );
  }

  return (
    <Dialog title={heading(request)} onClose={onCancel}>
      <form onSubmit={submit} className="space-y-3">
        {fields}
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
            {request.kind === 'move' ? 'Move' : request.kind === 'untag' ? 'Remove tag' : 'Add tag'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
