import { MAX_BULK } from '../../lib/api/bulk.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import type { BulkAction } from '../../lib/messaging/library-requests.ts';
import type { MessageInput, MessageOutput } from '../../lib/messaging/protocol.ts';

export interface BulkFailure {
  ids: string[];
  reason: string;
  /** The error's code where the server refused the request (e.g. CONFLICT: a server that does not check links). */
  code?: string;
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
  const skip = (skipped: string[], reason: string) => skipped.length && outcome.failed.push({ ids: skipped, reason });
  const request = async (chunk: string[], again: boolean): Promise<void> => {
    try {
      const applied = new Set((await send('bulkBookmarks', { action, ids: chunk })).ids);
      outcome.done.push(...chunk.filter((id) => applied.has(id)));
      skip(chunk.filter((id) => !applied.has(id)), SKIPPED.NOT_FOUND);
    } catch (err) {
      const error = toClientError(err);
      // A request naming bookmarks that are gone or in the trash (changed elsewhere) changes nothing: sent again without them.
      const reason = error.code === 'NOT_FOUND' || error.code === 'CONFLICT' ? SKIPPED[error.code] : undefined;
      const named = reason ? chunk.filter((id) => error.message.includes(id)) : [];
      if (again && reason && named.length > 0) {
        skip(named, reason);
        const rest = chunk.filter((id) => !named.includes(id));
        if (rest.length) await request(rest, false);
      } else {
        outcome.failed.push({ ids: chunk, reason: describeError(error).title, code: error.code });
      }
    }
  };
  for (let at = 0; at < ids.length; at += MAX_BULK) {
    await request(ids.slice(at, at + MAX_BULK), true);
    onProgress(Math.min(at + MAX_BULK, ids.length));
  }
  return outcome;
}

const SKIPPED = { NOT_FOUND: 'no longer in your library', CONFLICT: 'in the trash' };
