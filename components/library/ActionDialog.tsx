import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { CollectionPicker } from '../CollectionPicker.tsx';
import { Dialog } from '../Dialog.tsx';
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from '../field-styles.ts';
import { useCollections, useTags } from './queries.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type BookmarkEdit, EditBookmarkForm } from './EditBookmarkForm.tsx';

export type DialogChoice = { kind: 'move'; collectionId: string | null } | { kind: 'tag'; name: string } | ({ kind: 'edit' } & BookmarkEdit);

export type DialogRequest = { kind: 'move'; count: number; collectionId: string | null } | { kind: 'tag'; count: number } | { kind: 'edit'; bookmark: Bookmark };

interface Props {
  request: DialogRequest;
  onDone(choice: DialogChoice): void;
  onCancel(): void;
}

const heading = (r: DialogRequest) =>
  r.kind === 'edit' ? 'Edit bookmark' : `${r.kind === 'move' ? 'Move' : 'Tag'} ${r.count === 1 ? 'bookmark' : `${r.count} bookmarks`}`;

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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (request.kind === 'move') onDone({ kind: 'move', collectionId });
    else if (tagName.trim()) onDone({ kind: 'tag', name: tagName.trim() });
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
  } else {
    fields = (
      <label className="block space-y-1">
        <span className={labelClass}>Tag name</span>
        <input className={inputClass} value={tagName} onChange={(e) => setTagName(e.target.value)} list={`${id}-tags`} required />
        <datalist id={`${id}-tags`}>{tags?.map((t) => <option key={t.id} value={t.name} />)}</datalist>
      </label>
    );
  }

  return (
    <Dialog title={heading(request)} onClose={onCancel}>
      <form onSubmit={submit} className="space-y-3">
        {fields}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButtonClass} onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className={primaryButtonClass}>
            {request.kind === 'move' ? 'Move' : 'Add tag'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
