import type { Evaluation, Rules } from '../../lib/api/smart-folders.ts';
import { type CursorState, type ScanCursor, type TagCursor, decodeCursor, encodeCursor, rulesChanged } from './cursor.ts';
import { ExactTagStrategy } from './exact-tag.ts';
import { planEvaluation } from './plan.ts';
import { rulesPredicate } from './predicate.ts';
import type { EvaluationDialect } from './dialect.ts';
import { ScanStrategy } from './scan.ts';
import type { Steps } from './steps.ts';

/** What evaluation needs of a stored folder. */
export interface EvaluatedFolder {
  rules: Rules;
  rulesVersion: number;
  /** Signs and checks this folder's cursors. */
  cursorKey: string;
}

/** One evaluation page of a folder: picks the strategy, checks the cursor against it, signs the next one. */
export class Evaluator {
  private exactTag: ExactTagStrategy;
  private scan: ScanStrategy;

  constructor(private dialect: EvaluationDialect) {
    this.exactTag = new ExactTagStrategy(dialect);
    this.scan = new ScanStrategy(dialect);
  }

  /** Run inside one transaction that reads one snapshot: a strategy's reads must see the same data. */
  *page(userId: string, folder: EvaluatedFolder, cursor: string | undefined): Steps<Evaluation> {
    const from = cursor === undefined ? null : decodeCursor(cursor, folder.cursorKey);
    const plan = planEvaluation(folder.rules);
    const predicate = rulesPredicate(folder.rules, userId, this.dialect);
    const page =
      plan.strategy === 'exact-tag'
        ? yield* this.exactTag.page({ userId, tag: plan.tag, predicate, rulesVersion: folder.rulesVersion, from: tagCursor(from, folder.rulesVersion) })
        : yield* this.scan.page({ userId, plan, predicate, from: scanCursor(from) });
    return {
      bookmarks: page.bookmarks,
      continueCursor: page.next === null ? null : encodeCursor(page.next, folder.cursorKey),
      truncated: page.truncated,
    };
  }
}

/** Rule 2: an exact-tag cursor dies with the rules it was issued under. */
function tagCursor(from: CursorState | null, rulesVersion: number): TagCursor | null {
  if (from === null) return null;
  if (from.kind !== 'tag' || from.rulesVersion !== rulesVersion) throw rulesChanged();
  return from;
}

/** Rule 3: a scan cursor is only a position and stays good while the folder is still scanned. */
function scanCursor(from: CursorState | null): ScanCursor | null {
  if (from === null) return null;
  // An exact-tag cursor here means the rules changed away from their exact tag.
  if (from.kind !== 'scan') throw rulesChanged();
  return from;
}
