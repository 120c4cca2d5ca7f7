import { MAX_BULK } from '../../lib/api/bulk.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import type { BulkAction } from '../../lib/messaging/library-requests.ts';
import type { MessageInput, MessageOutput } from '../../lib/messaging/protocol.ts';

export interface BulkFailure {
  ids: string[];
  reason: string;
}

export interface BulkOutcome {
  /** The bookmarks the server applied the action to. */
  done: string[];
  failed: BulkFailure[];
}

type SendBulk = (name: 'bulkBookmarks', input: MessageInput<'bulkBookmarks'>) => Promise<MessageOutput<'bulkBookmarks'>>;

/**
 * Runs one action on a selection as bulk requests of at most 50 (the API's
 * limit), one after another, reporting how many are done after each. A request
 * that fails does not stop the others; its bookmarks are reported with the reason.
 */
export async function runBulk(send: SendBulk, action: BulkAction, ids: readonly string[], onProgress: (done: number) => void): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: [], failed: [] };
  for (let at = 0; at < ids.length; at += MAX_BULK) {
    const chunk = ids.slice(at, at + MAX_BULK);
    try {
      const result = await send('bulkBookmarks', { action, ids: chunk });
      const applied = new Set(result.ids);
      outcome.done.push(...chunk.filter((id) => applied.has(id)));
      const missed = chunk.filter((id) => !applied.has(id));
      if (missed.length) outcome.failed.push({ ids: missed, reason: 'no longer in your library' });
    } catch (err) {
      outcome.failed.push({ ids: chunk, reason: describeError(toClientError(err)).title });
    }
    onProgress(Math.min(at + MAX_BULK, ids.length));
  }
  return outcome;
}
