import type { SaveAllProgress } from '../storage/save-all-items.ts';
import { aboutTime, describeError } from './user-text.ts';

export const tabCount = (n: number): string => `${n} ${n === 1 ? 'tab' : 'tabs'}`;

export const NO_WEB_PAGE_IN_WINDOW = 'No tab in this window holds a web page Shelf can save.';

export const leftOut = (notWeb: number): string => `${tabCount(notWeb)} left out (not web pages)`;

/** When the queued pages go: in so long where the extension's request budget holds them, else when the server takes them. */
function whenQueuedGo(p: SaveAllProgress, now: number): string {
  if (p.goesAt === null || p.goesAt === undefined) return 'Shelf sends them as soon as the server takes them';
  return `Shelf sends them in about ${aboutTime(Math.max(1, Math.ceil((p.goesAt - now) / 1000)))}`;
}

const failure = (p: SaveAllProgress) => `${p.failed} not saved${p.error ? `: ${describeError({ ...p.error, retryAfterSeconds: undefined }).title}` : ''}`;

/** *Save all tabs* in one line, as the popup shows it (live, while it runs) and the toolbar menu's notification says it. */
export function describeSaveAll(p: SaveAllProgress, now = Date.now()): string {
  if (p.running) {
    const parts = [
      `${p.saved} of ${p.total} saved`,
      p.skipped > 0 && `${p.skipped} already saved`,
      p.waiting > 0 && `${p.waiting} queued (${whenQueuedGo(p, now)})`,
      p.failed > 0 && failure(p).replace(/\.$/, ''),
    ].filter((part) => part !== false);
    return `${parts.join(', ')}…`;
  }
  if (p.total === 0) return NO_WEB_PAGE_IN_WINDOW;
  const parts = [
    p.saved > 0 && `Saved ${tabCount(p.saved)}`,
    p.skipped > 0 && `${p.skipped} already saved`,
    p.waiting > 0 && `${p.waiting} queued (${whenQueuedGo(p, now)})`,
    p.failed > 0 && failure(p),
    p.notWeb > 0 && leftOut(p.notWeb),
  ].filter((part) => part !== false);
  // A part may end with its own full stop (an error's text).
  return parts.join(' · ').replace(/\.?$/, '.');
}
