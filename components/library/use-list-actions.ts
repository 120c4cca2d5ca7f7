import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import type { BulkAction } from '../../lib/messaging/library-requests.ts';
import type { DialogChoice, DialogRequest } from './ActionDialog.tsx';
import { useBookmarkActions } from './bookmark-actions.ts';
import type { RowAction } from './BookmarkRow.tsx';
import { type BulkOutcome, runBulk } from './bulk.ts';
import { changeBookmarks } from './list-cache.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';

/** A line under the list: progress, a result, or a trash with its undo. */
export type Notice = { text: string; undo?: Bookmark; error?: boolean };

const VERBS: Record<BulkAction['type'], [string, string]> = {
  move: ['Moving', 'Moved'],
  favorite: ['Updating', 'Updated'],
  tag: ['Tagging', 'Tagged'],
  trash: ['Trashing', 'Moved to the trash:'],
  check: ['Asking for a re-check of', 'Queued for a re-check:'],
};

/** One line for a finished bulk action: how many were done, and why the others were not. */
export function bulkSummary(action: BulkAction, total: number, outcome: BulkOutcome): string {
  const done = `${VERBS[action.type][1]} ${outcome.done.length} of ${total}.`;
  if (outcome.failed.length === 0) return done;
  const reasons = outcome.failed.map((f) => `${f.ids.length} (${f.reason.replace(/\.$/, '')})`).join(', ');
  return `${done} Not done: ${reasons}.`;
}

/** How a bulk action changes a bookmark, to show it in every list at once. */
function applied(action: BulkAction): (b: Bookmark) => Bookmark | null {
  switch (action.type) {
    case 'move':
      return (b) => ({ ...b, collectionId: action.collectionId });
    case 'favorite':
      return (b) => ({ ...b, isFavorite: action.isFavorite });
    case 'tag':
      return (b) => (b.tags.includes(action.name) ? b : { ...b, tags: [...b.tags, action.name] });
    case 'trash':
      return () => null;
    case 'check':
      // The server checks later: nothing shown changes now.
      return (b) => b;
  }
}

/**
 * The actions of a list, on one bookmark (a row's buttons) or on the selection
 * (bulk requests of 50): the dialog they may need, one progress line, and a
 * notice of what happened, with undo after a trash.
 */
export function useListActions() {
  const qc = useQueryClient();
  const { update, trash, restore } = useBookmarkActions();
  const [dialog, setDialog] = useState<{ request: DialogRequest; targets: Bookmark[] } | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [running, setRunning] = useState(false);
  const fail = (err: unknown) => setNotice({ text: describeError(toClientError(err)).title, error: true });

  const bulk = async (action: BulkAction, targets: Bookmark[]) => {
    const ids = targets.map((b) => b.id);
    setRunning(true);
    setNotice({ text: `${VERBS[action.type][0]} ${ids.length} bookmarks: 0 of ${ids.length} done` });
    const outcome = await runBulk(sendLibrary, action, ids, (done) => setNotice({ text: `${VERBS[action.type][0]} ${ids.length} bookmarks: ${done} of ${ids.length} done` }));
    changeBookmarks(qc, new Set(outcome.done), applied(action));
    void qc.invalidateQueries({ queryKey: keys.collections });
    if (action.type === 'tag') void qc.invalidateQueries({ queryKey: keys.tags });
    setNotice({ text: bulkSummary(action, ids.length, outcome), error: outcome.failed.length > 0 });
    setRunning(false);
    return outcome;
  };

  /** One bookmark's quick action. */
  const act = (action: RowAction, b: Bookmark) => {
    switch (action) {
      case 'favorite':
        update.mutate({ id: b.id, patch: { isFavorite: !b.isFavorite } }, { onError: fail });
        return;
      case 'trash':
        trash.mutate(b, { onSuccess: () => setNotice({ text: `Moved to the trash: ${b.title || b.url}`, undo: b }), onError: fail });
        return;
      case 'move':
        setDialog({ request: { kind: 'move', count: 1, collectionId: b.collectionId }, targets: [b] });
        return;
      case 'tag':
        setDialog({ request: { kind: 'tag', count: 1 }, targets: [b] });
        return;
      case 'edit':
        setDialog({ request: { kind: 'edit', title: b.title, note: b.note }, targets: [b] });
    }
  };

  /** The selection's action; move and tag ask first. */
  const actOnMany = (action: 'move' | 'tag' | 'favorite' | 'trash', targets: Bookmark[]) => {
    if (action === 'move') setDialog({ request: { kind: 'move', count: targets.length, collectionId: null }, targets });
    else if (action === 'tag') setDialog({ request: { kind: 'tag', count: targets.length }, targets });
    else return bulk(action === 'trash' ? { type: 'trash' } : { type: 'favorite', isFavorite: !targets.every((b) => b.isFavorite) }, targets);
    return undefined;
  };

  const choose = (choice: DialogChoice) => {
    if (!dialog) return;
    const { targets } = dialog;
    setDialog(null);
    if (choice.kind === 'edit') update.mutate({ id: targets[0]!.id, patch: { title: choice.title, note: choice.note } }, { onError: fail });
    else if (targets.length === 1 && choice.kind === 'move') update.mutate({ id: targets[0]!.id, patch: { collectionId: choice.collectionId } }, { onError: fail });
    else if (targets.length === 1 && choice.kind === 'tag') {
      const b = targets[0]!;
      if (!b.tags.includes(choice.name)) update.mutate({ id: b.id, patch: { tags: [...b.tags, choice.name] } }, { onError: fail });
    } else void bulk(choice.kind === 'move' ? { type: 'move', collectionId: choice.collectionId } : { type: 'tag', name: choice.name }, targets);
  };

  const undo = (b: Bookmark) => restore.mutate(b, { onSuccess: () => setNotice({ text: `Restored: ${b.title || b.url}` }), onError: fail });

  return { act, actOnMany, dialog, choose, cancelDialog: () => setDialog(null), notice, undo, running };
}
