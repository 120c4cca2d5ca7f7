import { captureOnDocument } from '../../lib/dom/capture.ts';

/**
 * popup.html holds the form pre-rendered (see modules/prerender-popup.ts), so it
 * is on screen, with Save, before React has loaded. Until React takes the form
 * over, popup-early.js holds what the user does there that needs the app:
 * clicks on buttons, Enter in a one-line field, Ctrl+Enter. React then replays
 * those on the same elements (hydration keeps the page's own DOM), in order, once
 * its fields have adopted what was typed meanwhile (components/use-early-value.ts).
 * Escape needs no app: it closes the popup at once, as it does later (after a
 * held save, once that is done).
 */

interface KeyInit {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export type EarlyEvent = { kind: 'click'; target: HTMLElement } | { kind: 'key'; target: HTMLElement; init: KeyInit };

interface EarlyEventHolder {
  /** Stops holding and hands over what was held. */
  release(): EarlyEvent[];
}

// One page, two bundles: the classic early script and the app's module.
const HOLDER = Symbol.for('shelf.popup.earlyEvents');
// Once the app has the page, what is left there says so: an early script that ran late holds nothing.
type HolderWindow = Window & { [HOLDER]?: EarlyEventHolder | 'taken over' };

/** User Timing marks (the bench reads them): since when a click is held, and when the app took the page over. */
export const HOLDING_MARK = 'shelf:popup-holding';
export const TAKEN_OVER_MARK = 'shelf:popup-taken-over';

const isSaveShortcut = (e: KeyInit) => e.key === 'Enter' && (e.ctrlKey || e.metaKey);

/** Run by popup-early.js, before the page can show: from here until React takes over, nothing is lost. */
export function holdEarlyEvents(win: Window): void {
  if ((win as HolderWindow)[HOLDER] === 'taken over') return;
  const held: EarlyEvent[] = [];
  const hold = (e: Event, event: EarlyEvent) => {
    // The app acts on it, later; the page alone would not (the form's method="dialog" submits nowhere).
    e.preventDefault();
    e.stopImmediatePropagation();
    held.push(event);
  };
  const keyEvent = ({ key, ctrlKey, metaKey, shiftKey, altKey }: KeyboardEvent, target: HTMLElement): EarlyEvent => ({
    kind: 'key',
    target,
    init: { key, ctrlKey, metaKey, shiftKey, altKey },
  });
  const onClick = (e: MouseEvent) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (button && !button.disabled) hold(e, { kind: 'click', target: button });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const { target } = e;
    if (e.isComposing || !(target instanceof HTMLElement)) return; // an input method's own Enter
    // Escape closes at once, unless a save waits to be done: then it closes after it, as it would later.
    if (e.key === 'Escape') return held.length === 0 ? win.close() : hold(e, keyEvent(e, target));
    // Enter in a one-line field submits the form or, in the tags field, adds a tag: the app decides which.
    // Elsewhere Enter is the element's own (a new line in the note, a click on a button), unless it is the save shortcut.
    if (isSaveShortcut(e) || (e.key === 'Enter' && target instanceof HTMLInputElement)) hold(e, keyEvent(e, target));
  };
  // Once something waits for the app, the fields take no more typing until it is done: text typed after an early Enter in the tags field would join the tag that Enter makes.
  const onBeforeInput = (e: Event) => held.length > 0 && e.preventDefault();
  const stop = captureOnDocument(win.document, { click: onClick, keydown: onKeyDown, beforeinput: onBeforeInput });
  (win as HolderWindow)[HOLDER] = {
    release() {
      stop();
      return held.splice(0);
    },
  };
  win.performance.mark(HOLDING_MARK);
}

/** The app has the page: the early script stops holding; what it held comes back (nothing when there was no early script). */
export function takeOverEarlyEvents(win: Window): EarlyEvent[] {
  const holder = (win as HolderWindow)[HOLDER];
  (win as HolderWindow)[HOLDER] = 'taken over';
  win.performance.mark(TAKEN_OVER_MARK);
  return holder === undefined || holder === 'taken over' ? [] : holder.release();
}

/** A held event again, now for the app's handlers (on an element the app no longer shows, it does nothing). */
export function replayEarlyEvent(event: EarlyEvent): void {
  const { target } = event;
  if (event.kind === 'click') return target.click();
  const { init } = event;
  const unhandled = target.dispatchEvent(new KeyboardEvent('keydown', { ...init, bubbles: true, cancelable: true }));
  // A browser submits the form on Enter in a one-line field only for a real key press: for this one, the replay does.
  if (unhandled && init.key === 'Enter' && !isSaveShortcut(init) && target instanceof HTMLInputElement) target.form?.requestSubmit();
}
