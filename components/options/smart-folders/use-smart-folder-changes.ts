import { useMutation, useQueryClient } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import type { CreateSmartFolderBody, SmartFolder } from '../../../lib/api/smart-folders.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';

type Body = z.output<typeof CreateSmartFolderBody>;

/**
 * Create, change and delete smart folders. A change or delete shows in the
 * list at once and is undone when it fails; every one ends by reading the
 * list again (the background's kept copy, already updated: no request).
 */
export function useSmartFolderChanges() {
  const qc = useQueryClient();
  const optimistic = async (edit: (folders: SmartFolder[]) => SmartFolder[]) => {
    await qc.cancelQueries({ queryKey: keys.smartFolders });
    const before = qc.getQueryData<SmartFolder[]>(keys.smartFolders);
    qc.setQueryData<SmartFolder[]>(keys.smartFolders, (folders) => folders && edit(folders));
    return { before };
  };
  const rollback = (_error: unknown, _input: unknown, context: { before: SmartFolder[] | undefined } | undefined) =>
    qc.setQueryData(keys.smartFolders, context?.before);
  const settle = () => qc.invalidateQueries({ queryKey: keys.smartFolders });

  const create = useMutation({ mutationFn: (body: Body) => sendLibrary('createSmartFolder', body), onSettled: settle });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: string; body: Body }) => sendLibrary('updateSmartFolder', { id, patch: { name: body.name, rules: body.rules } }),
    onMutate: ({ id, body }) => optimistic((folders) => folders.map((f) => (f.id === id ? { ...f, name: body.name, rules: body.rules } : f))),
    onError: rollback,
    // The kept matches were for the old rules.
    onSettled: (_folder, _error, { id }) => Promise.all([settle(), qc.invalidateQueries({ queryKey: keys.smartFolder(id) })]),
  });
  const remove = useMutation({
    mutationFn: (id: string) => sendLibrary('deleteSmartFolder', { id }),
    onMutate: (id) => optimistic((folders) => folders.filter((f) => f.id !== id)),
    onError: rollback,
    onSettled: settle,
  });
  return { create, update, remove };
}
