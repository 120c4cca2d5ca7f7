import { type Draft, draftsItem } from '../../lib/storage/items.ts';
import { normaliseUrl } from '../../lib/url.ts';

export const DRAFT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
export const DRAFT_WRITE_DELAY_MS = 250;

/**
 * What the user typed in the popup, per page (normalised URL), kept until it is
 * saved. The whole record is held in memory so that the write when the popup
 * closes is a single storage call: a read first would not finish in a closing page.
 */
export class DraftBook {
  private timer: ReturnType<typeof setTimeout> | undefined;

  private constructor(private drafts: Record<string, Draft>) {}

  /** Reads the drafts, dropping (and forgetting in storage) those untouched for 30 days. */
  static async open(now = Date.now()): Promise<DraftBook> {
    const stored = await draftsItem.get();
    const kept = Object.fromEntries(Object.entries(stored).filter(([, draft]) => now - draft.updatedAt <= DRAFT_MAX_AGE_MS));
    const book = new DraftBook(kept);
    if (Object.keys(kept).length !== Object.keys(stored).length) await book.write();
    return book;
  }

  /** A book that keeps nothing, for when storage cannot be read: the popup still saves. */
  static empty(): DraftBook {
    return new DraftBook({});
  }

  get(url: string): Draft | null {
    return this.drafts[normaliseUrl(url)] ?? null;
  }

  /** Kept now, written after a short pause in typing. */
  put(url: string, draft: Draft): void {
    this.drafts = { ...this.drafts, [normaliseUrl(url)]: draft };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.write(), DRAFT_WRITE_DELAY_MS);
  }

  remove(url: string): Promise<void> {
    const { [normaliseUrl(url)]: _saved, ...rest } = this.drafts;
    this.drafts = rest;
    return this.write();
  }

  /** Writes a change still waiting for its pause, at once: the popup is closing. */
  flush(): void {
    if (this.timer !== undefined) void this.write();
  }

  private async write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      await draftsItem.set(this.drafts);
    } catch (err) {
      console.warn('Shelf: the draft could not be kept', err);
    }
  }
}
