import { useState } from 'react';
import type { SmartFolder } from '../../../lib/api/smart-folders.ts';
import { dangerButtonClass, primaryButtonClass, secondaryButtonClass } from '../../field-styles.ts';
import { useSmartFolders } from '../../library/queries.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { MissingScope, useScopes } from '../scopes.tsx';
import { SectionError, failureOf } from '../SectionError.tsx';
import { RuleBuilder } from './RuleBuilder.tsx';
import { SmartFolderPreview } from './SmartFolderPreview.tsx';
import { type Draft, blankCondition } from './rules.ts';
import { useSmartFolderChanges } from './use-smart-folder-changes.ts';

type Editing = { kind: 'new' } | { kind: 'edit'; folder: SmartFolder } | null;

const draftOf = (folder: SmartFolder): Draft => ({ name: folder.name, match: folder.rules.match, conditions: folder.rules.conditions.map((c) => ({ ...c })) });
const NEW_DRAFT: Draft = { name: '', match: 'all', conditions: [blankCondition('tag')] };

const summary = (folder: SmartFolder) => {
  const n = folder.rules.conditions.length;
  return `${n} ${n === 1 ? 'condition' : 'conditions'}${n > 1 ? `, ${folder.rules.match === 'all' ? 'all' : 'any'} must hold` : ''}`;
};

/** The Smart folders section: the folders, a rule builder to make or change one, delete, and a preview of the first matches. */
export function SmartFoldersSection() {
  const scopes = useScopes();
  const folders = useSmartFolders();
  const { create, update, remove } = useSmartFolderChanges();
  const [editing, setEditing] = useState<Editing>(null);
  const [previewing, setPreviewing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SmartFolder | null>(null);
  const [status, setStatus] = useState('');

  if (!scopes.loaded) return null;
  if (!scopes.allows('bookmarks:read')) return <MissingScope scope="bookmarks:read">Smart folders cannot be shown.</MissingScope>;
  const mayWrite = scopes.allows('bookmarks:write');
  const failure = failureOf(folders.error ?? create.error ?? update.error ?? remove.error);

  const builder = editing && (
    <RuleBuilder
      key={editing.kind === 'edit' ? editing.folder.id : 'new'}
      initial={editing.kind === 'edit' ? draftOf(editing.folder) : NEW_DRAFT}
      heading={editing.kind === 'edit' ? `Edit “${editing.folder.name}”` : 'New smart folder'}
      submitLabel={editing.kind === 'edit' ? 'Save changes' : 'Create smart folder'}
      busy={create.isPending || update.isPending}
      onCancel={() => setEditing(null)}
      onSubmit={(body) => {
        const done = (folder: SmartFolder) => {
          setEditing(null);
          setStatus(`Saved “${folder.name}”.`);
        };
        if (editing.kind === 'edit') update.mutate({ id: editing.folder.id, body }, { onSuccess: done });
        else create.mutate(body, { onSuccess: done });
      }}
    />
  );

  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">A smart folder shows every bookmark that matches its rules; it moves nothing.</p>
      {mayWrite ? (
        editing === null && (
          <button type="button" className={primaryButtonClass} onClick={() => setEditing({ kind: 'new' })}>
            New smart folder
          </button>
        )
      ) : (
        <MissingScope scope="bookmarks:write">Creating, changing and deleting smart folders are not offered.</MissingScope>
      )}
      {editing?.kind === 'new' && builder}
      <p role="status" className="text-sm">
        {status}
      </p>
      {failure && <SectionError error={failure} />}
      {folders.isSuccess && folders.data.length === 0 && <p className="text-sm">No smart folders yet.</p>}
      <ul aria-label="Smart folders" className="space-y-2">
        {folders.data?.map((folder) => (
          <li key={folder.id} className="space-y-2 rounded-md border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
            <div className="flex flex-wrap items-center gap-2">
              <div className="min-w-0 flex-1">
                <p className="font-medium">{folder.name}</p>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{summary(folder)}</p>
              </div>
              <button type="button" className={secondaryButtonClass} aria-label={`Preview ${folder.name}`} aria-expanded={previewing === folder.id} onClick={() => setPreviewing(previewing === folder.id ? null : folder.id)}>
                Preview
              </button>
              {mayWrite && (
                <>
                  <button type="button" className={secondaryButtonClass} aria-label={`Edit ${folder.name}`} onClick={() => setEditing({ kind: 'edit', folder })}>
                    Edit
                  </button>
                  <button type="button" className={dangerButtonClass} aria-label={`Delete ${folder.name}`} onClick={() => setDeleting(folder)}>
                    Delete
                  </button>
                </>
              )}
            </div>
            {editing?.kind === 'edit' && editing.folder.id === folder.id && builder}
            {previewing === folder.id && <SmartFolderPreview folder={folder} />}
          </li>
        ))}
      </ul>
      {deleting && (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete smart folder"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const folder = deleting;
            setDeleting(null);
            remove.mutate(folder.id, { onSuccess: () => setStatus(`Deleted “${folder.name}”.`) });
          }}
        >
          <p>The smart folder’s rules are deleted. No bookmark changes.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
