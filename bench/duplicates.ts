import { openDatabase } from '../server/db/database.ts';
import { ensureExtensionBuilt } from '../test/browser/support.ts';
import { buildHelloPage } from './extension-support.ts';
import { openedBesideHello, withSignedInBrowser } from './options.ts';
import { type Row, fmtCount } from './table.ts';
import type { BenchSettings, Workspace } from './workspace.ts';

const SECTION = 'duplicates';
/** Issue 18: the Duplicates view with 1,000 groups. */
const GROUPS = 1_000;
/**
 * Each opening of the view sends GET /bookmarks/duplicates, a heavy endpoint the extension sends twice a minute
 * at most (a third waits for room): the loads are spaced so that each is sent at once.
 */
const SPACING_MS = 30_500;
const LOADS = 5;
/** A group's Merge button: the view is ready for the user. */
const READY = 'button[aria-label^="Merge the duplicates of"]';

/**
 * Issue 18 point 2's figure, in headless Chromium with the built extension, as the options page's
 * trees are measured: the options page opened on Duplicates until a group's Merge button is in the
 * page, beside the hello-world page, on a copy of the library where 1,000 pairs of bookmarks share
 * a URL. GET /bookmarks/duplicates answers at most 500 groups (docs/api-decisions.md), so the view
 * shows 500 of them: what a user with 1,000 sees.
 */
export async function duplicatesSection(ws: Workspace, _settings: BenchSettings): Promise<Row[]> {
  ensureExtensionBuilt();
  const helloDir = await buildHelloPage(ws);
  const dir = ws.seededDir('duplicates');
  const groups = makeDuplicates(dir);
  const rows: Row[] = [];
  await withSignedInBrowser(
    ws,
    dir,
    helloDir,
    async (b) => {
      rows.push(
        await openedBesideHello(
          b,
          SECTION,
          `navigation → Duplicates view interactive, ${fmtCount(groups)} groups in the library (500 answered), median of ${LOADS} loads ${SPACING_MS / 1000} s apart`,
          'options.html#duplicates',
          { loads: LOADS, beforePage: () => new Promise((resolve) => setTimeout(resolve, SPACING_MS)) },
        ),
      );
    },
    READY,
  );
  return rows;
}

/** Gives GROUPS bookmarks the URL of another each (the server not running on the directory): the library's groups of duplicates. */
function makeDuplicates(dataDir: string): number {
  const db = openDatabase(dataDir);
  try {
    const seqs = db.prepare<[], number>('SELECT seq FROM bookmarks WHERE deleted_at IS NULL ORDER BY seq').pluck().all();
    const copy = db.prepare('UPDATE bookmarks SET url = (SELECT url FROM bookmarks WHERE seq = ?), url_key = (SELECT url_key FROM bookmarks WHERE seq = ?) WHERE seq = ?');
    db.transaction(() => {
      for (let i = 0; i < GROUPS; i++) copy.run(seqs[i + GROUPS]!, seqs[i + GROUPS]!, seqs[i]!);
    })();
    return db.prepare<[], number>('SELECT COUNT(*) FROM (SELECT url_key FROM bookmarks WHERE deleted_at IS NULL GROUP BY user_id, url_key HAVING COUNT(*) > 1)').pluck().get()!;
  } finally {
    db.close();
  }
}
