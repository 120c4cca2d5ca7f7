import type { SaveAllProgress } from '../storage/save-all-items.ts';
import { describeError } from './user-text.ts';

const tabs = (n: number) => `${n} ${n === 1 ? 'tab' : 'tabs'}`;

/** *Save all tabs* in one line, as the popup shows it and the toolbar menu's notification says it. */
export function describeSaveAll(p: SaveAllProgress): string {
  const done = p.saved + p.skipped + p.waiting + p.failed;
  if (p.running) return `Saving tabs: ${done} of ${p.total} done…`;
  if (p.total === 0) return 'No tab in this window holds a web page Shelf can save.';
  const parts = [
    p.saved > 0 && `Saved ${tabs(p.saved)}`,
    p.skipped > 0 && `${p.skipped} already saved`,
    p.waiting > 0 && `${p.waiting} waiting to be saved (Shelf sends them as soon as the server takes them)`,
    p.failed > 0 && `${p.failed} not saved${p.error ? `: ${describeError({ ...p.error, retryAfterSeconds: undefined }).title}` : ''}`,
    p.notWeb > 0 && `${tabs(p.notWeb)} left out (not web pages)`,
  ].filter((part) => part !== false);
  // A part may end with its own full stop (an error's text).
  return parts.join(' · ').replace(/\.?$/, '.');
}
