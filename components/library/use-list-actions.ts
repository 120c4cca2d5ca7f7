import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import type { BulkAction } from '../../lib/messaging/library-requests.ts';
import type { DialogChoice, DialogRequest } from './ActionDialog.tsx';
import type { BookmarkEdit } from './EditBookmarkForm.tsx';
import { useBookmarkActions } from './bookmark-actions.ts';
import type { RowAction } from './BookmarkRow.tsx';
import type { DropTarget } from './SourceNav.tsx';
import { type BulkOutcome, runBulk } from './bulk.ts';
import { changeBookmarks } from './list-cache.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';
import { hasTag } from '../tag-suggestions.ts';

/** A line under the list: progress, a result, or a trash with its undo. */
export type Notice = { text: string; undo?: Bookmark; error?: boolean };

const VERBS: Record<BulkAction['type'], [string, string]> = {
  move: ['Moving', 'Moved'],
  favorite: ['Updating', 'Updated'],
  tag: ['Tagging', 'Tagged'],
  untag: ['Removing a tag from', 'Removed the tag from'],
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

/** How a bulk action changes a bookmark, to show it in every list at once (`untagged`: the removed tag's name). */
function applied(action: BulkAction, untagged: string): (b: Bookmark) => Bookmark | null {
  switch (action.type) {
    case 'move':
      return (b) => ({ ...b, collectionId: action.collectionId });
    case 'favorite':
      return (b) => ({ ...b, isFavorite: action.isFavorite });
    case 'tag':
      return (b) => (b.tags.includes(action.name) ? b : { ...b, tags: [...b.tags, action.name] });
    case 'untag':
      return (b) => ({ ...b, tags: b.tags.filter((t) => t.toLowerCase() !== untagged.toLowerCase()) });
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

  /**
   * One action, or several of one kind one after another (several tags added): one
   * progress line, one summary; a bookmark counts as done when every step was.
   */
  const bulk = async (action: BulkAction | BulkAction[], targets: Bookmark[], untagged = '') => {
    const steps = Array.isArray(action) ? action : [action];
    const first = steps[0]!;
    const ids = targets.map((b) => b.id);
    const progress = (step: number, done: number) =>
      setNotice({ text: `${VERBS[first.type][0]} ${ids.length} bookmarks${steps.length > 1 ? ` (tag ${step + 1} of ${steps.length})` : ''}: ${done} of ${ids.length} done` });
    setRunning(true);
    progress(0, 0);
    const outcome: BulkOutcome = { done: ids, failed: [] };
    for (const [i, step] of steps.entries()) {
      const result = await runBulk(sendLibrary, step, ids, (done) => progress(i, done));
      changeBookmarks(qc, new Set(result.done), applied(step, untagged));
      const done = new Set(result.done);
      outcome.done = outcome.done.filter((id) => done.has(id));
      outcome.failed.push(...result.failed);
    }
    void qc.invalidateQueries({ queryKey: keys.collections });
    void qc.invalidateQueries({ queryKey: keys.stats });
    if (first.type === 'tag' || first.type === 'untag') void qc.invalidateQueries({ queryKey: keys.tags });
    setNotice({ text: bulkSummary(first, ids.length, outcome), error: outcome.failed.length > 0 });
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
        setDialog({ request: { kind: 'edit', bookmark: b }, targets: [b] });
    }
  };

  /** The selection's action; move, tag and untag ask first (untag: which of the tags the selection carries). */
  const actOnMany = (action: 'move' | 'tag' | 'untag' | 'favorite' | 'trash', targets: Bookmark[]) => {
    if (action === 'move') setDialog({ request: { kind: 'move', count: targets.length, collectionId: null }, targets });
    else if (action === 'tag') setDialog({ request: { kind: 'tag', count: targets.length }, targets });
    else if (action === 'untag') {
      const names = [...new Set(targets.flatMap((b) => b.tags))].sort((a, b) => a.localeCompare(b));
      if (names.length === 0) setNotice({ text: 'None of the selected bookmarks has a tag.' });
      else setDialog({ request: { kind: 'untag', count: targets.length, names }, targets });
    }
    else return bulk(action === 'trash' ? { type: 'trash' } : { type: 'favorite', isFavorite: !targets.every((b) => b.isFavorite) }, targets);
    return undefined;
  };

  const choose = (choice: DialogChoice) => {
    if (!dialog) return;
    const { targets } = dialog;
    setDialog(null);
    if (choice.kind === 'edit') edit(targets[0]!, choice);
    else if (targets.length === 1 && choice.kind === 'move') update.mutate({ id: targets[0]!.id, patch: { collectionId: choice.collectionId } }, { onError: fail });
    else if (targets.length === 1 && choice.kind === 'tag') {
      const b = targets[0]!;
      const added = choice.names.filter((name) => !hasTag(b.tags, name));
      if (added.length > 0) update.mutate({ id: b.id, patch: { tags: [...b.tags, ...added] } }, { onError: fail });
    } else if (choice.kind === 'move') void bulk({ type: 'move', collectionId: choice.collectionId }, targets);
    else if (choice.kind === 'tag') void bulk(choice.names.map((name) => ({ type: 'tag', name })), targets);
    else void bulk({ type: 'untag', tagId: choice.tag.id }, targets, choice.tag.name);
  };

  /** The changed fields in one PATCH, then the cover's removal (its own endpoint): each failure said. */
  const edit = (b: Bookmark, { patch, removeCover }: BookmarkEdit) => {
    const withoutCover = () =>
      void sendLibrary('removeCover', { id: b.id }).then(() => changeBookmarks(qc, new Set([b.id]), (now) => ({ ...now, coverImage: null })), fail);
    if (Object.keys(patch).length > 0) update.mutate({ id: b.id, patch }, { onError: fail, onSuccess: () => removeCover && withoutCover() });
    else if (removeCover) withoutCover();
  };

  /** Bookmarks dragged onto a collection (moved there) or a tag (tagged with it): one bulk action, one summary. */
  const dropOn = (target: DropTarget, targets: Bookmark[]) =>
    bulk(target.kind === 'collection' ? { type: 'move', collectionId: target.id } : { type: 'tag', name: target.name }, targets);

  const undo = (b: Bookmark) => restore.mutate(b, { onSuccess: () => setNotice({ text: `Restored: ${b.title || b.url}` }), onError: fail });

  return { act, actOnMany, dropOn, dialog, choose, cancelDialog: () => setDialog(null), notice, undo, running };
}
