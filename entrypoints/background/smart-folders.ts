import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { SmartFolder } from '../../lib/api/smart-folders.ts';
import { ClientError } from '../../lib/client/errors.ts';
import type { SmartFolderView } from '../../lib/messaging/library-replies.ts';
import { type SmartFolderResults, smartFolderResultsItem } from '../../lib/storage/library-items.ts';
import type { Account } from './account.ts';
import type { RequestScheduler } from '../../lib/client/scheduler.ts';
import type { Library } from './library.ts';

type Pass = NonNullable<SmartFolderResults['running']>;

const freshPass = (): Pass => ({ bookmarks: [], cursor: null, truncated: false, pages: 0 });

function addPage(pass: Pass, bookmarks: Bookmark[], cursor: string | null, truncated: boolean): Pass {
  const seen = new Set(pass.bookmarks.map((b) => b.id));
  return {
    bookmarks: [...pass.bookmarks, ...bookmarks.filter((b) => !seen.has(b.id))],
    cursor,
    truncated: pass.truncated || truncated,
    pages: pass.pages + 1,
  };
}

/** Evaluation as the scheduler sees it: a heavy endpoint (two a minute for all folders together), sent for the user. */
const EVALUATION = { priority: 'user', heavy: 'evaluateSmartFolder' } as const;

/**
 * Smart-folder matches, kept per folder with when they were fetched. Evaluation
 * is a heavy endpoint, so each call sends at most one evaluation request and
 * only when the scheduler (the one owner of the heavy budget, kept across
 * worker restarts) has room for it at once; a caller continues a pass until `complete`.
 * The API's rules are followed exactly: a non-null continueCursor is always
 * followed (even after an empty page), and SMART_FOLDER_CURSOR_INVALID starts
 * the pass again without a cursor.
 */
export class SmartFolders {
  constructor(
    private account: Account,
    private library: Library,
    private scheduler: Pick<RequestScheduler, 'waitBefore'>,
  ) {}

  /** What is kept for the folder, without a request. */
  async view(id: string): Promise<SmartFolderView> {
    const folder = await this.folder(id, false);
    return this.toView(id, await this.kept(folder));
  }

  /** One step of evaluation: starts a pass (or a new one with `restart`) or continues the one under way, budget permitting. */
  async evaluate(id: string, restart: boolean): Promise<SmartFolderView> {
    // A refresh asks for the definition again, so a rule changed elsewhere is evaluated as it is now.
    const folder = await this.folder(id, restart);
    const entry = await this.kept(folder);
    if (restart || (entry.running === null && entry.done === null)) {
      entry.running = freshPass();
      await this.keep(id, entry);
    }
    if (entry.running === null) return this.toView(id, entry);

    const running = entry.running;
    try {
      // Refused unsent (RATE_LIMITED) unless it can go now: the page waits for the time the view names, not the background.
      const page = await (await this.account.client()).call('evaluateSmartFolder', {
        params: { id },
        query: running.cursor === null ? {} : { cursor: running.cursor },
        priority: EVALUATION.priority,
        maxWaitMs: 0,
      });
      const next = addPage(running, page.bookmarks, page.continueCursor, page.truncated);
      if (next.cursor === null) {
        entry.done = { ...next, fetchedAt: Date.now() };
        entry.running = null;
      } else {
        entry.running = next;
      }
    } catch (err) {
      if (!(err instanceof ClientError)) throw err;
      // A 429 the server answered anyway (another device spent the allowance) moved the scheduler's next chance.
      if (err.code === 'SMART_FOLDER_CURSOR_INVALID') entry.running = freshPass();
      else if (err.code !== 'RATE_LIMITED') throw err;
    }
    await this.keep(id, entry);
    return this.toView(id, entry);
  }

  async clear(): Promise<void> {
    await smartFolderResultsItem.set({});
  }

  private async folder(id: string, refresh: boolean): Promise<SmartFolder> {
    const find = (folders: SmartFolder[]) => folders.find((f) => f.id === id);
    const folder = find(await this.library.smartFolders(refresh)) ?? find(await this.library.smartFolders(true));
    if (!folder) throw new ClientError('NOT_FOUND', 'This smart folder no longer exists');
    return folder;
  }

  /** The folder's kept results, or none when they were asked with other rules. */
  private async kept(folder: SmartFolder): Promise<SmartFolderResults> {
    const rules = JSON.stringify(folder.rules);
    const entry = (await smartFolderResultsItem.get())[folder.id];
    return entry?.rules === rules ? entry : { rules, done: null, running: null };
  }

  private async keep(id: string, entry: SmartFolderResults): Promise<void> {
    const all = await smartFolderResultsItem.get();
    await smartFolderResultsItem.set({ ...all, [id]: entry });
  }

  private async toView(id: string, entry: SmartFolderResults): Promise<SmartFolderView> {
    const shown = entry.done ?? entry.running;
    const wait = await this.scheduler.waitBefore(EVALUATION);
    return {
      folderId: id,
      bookmarks: shown?.bookmarks ?? [],
      truncated: shown?.truncated ?? false,
      complete: entry.running === null,
      fetchedAt: entry.done?.fetchedAt ?? null,
      pages: shown?.pages ?? 0,
      nextEvaluationAt: wait > 0 ? Date.now() + wait : null,
    };
  }
}
