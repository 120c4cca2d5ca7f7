import { heavyBudgetItem } from '../../lib/storage/library-items.ts';

/** The API's heavy-endpoint limit as this server applies it: two requests a minute for all smart folders together. */
export const HEAVY_PER_MINUTE = 2;
const WINDOW_MS = 60_000;

/**
 * The extension's own count of heavy requests, kept across service-worker
 * restarts, so that browsing never meets a 429: a request is sent only when
 * the window has room, and a 429 the server answers anyway moves the next
 * chance to what its Retry-After says.
 */
export class HeavyBudget {
  constructor(private now: () => number = () => Date.now()) {}

  /** When the next heavy request may go (epoch ms), or null when it may go now. */
  async nextAt(): Promise<number | null> {
    const { sent, notBefore } = await heavyBudgetItem.get();
    const now = this.now();
    const recent = sent.filter((at) => at > now - WINDOW_MS);
    const byCount = recent.length >= HEAVY_PER_MINUTE ? Math.min(...recent) + WINDOW_MS : 0;
    const next = Math.max(byCount, notBefore);
    return next > now ? next : null;
  }

  async spend(): Promise<void> {
    const { sent, notBefore } = await heavyBudgetItem.get();
    const now = this.now();
    await heavyBudgetItem.set({ sent: [...sent.filter((at) => at > now - WINDOW_MS), now], notBefore });
  }

  /** The server refused one anyway (another device of the account spent the allowance). */
  async refused(retryAfterSeconds: number | undefined): Promise<void> {
    const budget = await heavyBudgetItem.get();
    await heavyBudgetItem.set({ ...budget, notBefore: this.now() + (retryAfterSeconds ?? 60) * 1000 });
  }
}
