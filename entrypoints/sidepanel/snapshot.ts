import { relativeDate } from '../../components/library/relative-date.ts';
import { captureOnDocument } from '../../lib/dom/capture.ts';
import { PANEL_PAINT_KEY, forgetPanelPaint } from '../../lib/storage/panel-paint.ts';

/**
 * The side panel's first rows, shown before its JavaScript has loaded.
 *
 * When the panel opens on a list from its kept first page, its first paint is
 * kept here (the page's localStorage) with the version of the page it showed
 * (its keptAt: the background rewrites a kept page only when it changes). On the
 * next opening, sidepanel-early.js puts that paint back into #root as soon as
 * its reads say the panel opens on the same list at the same version, with the
 * same build, its rows' ages told again for now: what React's first render will
 * draw. React's first commit then replaces it.
 *
 * Meanwhile the paint only looks alive: a click or middle click in it is held,
 * and replayed once React has the panel, on the element React drew in its place
 * (when the element is the same, markup for markup); keys and typing in it are
 * refused. This module runs in the early script too: it imports little.
 * Not in development (`wxt dev`), where the page script keeps its name as its
 * code changes.
 */

/** Larger than any first paint of the panel (some 30 kB): more is not a paint to keep. */
const MAX_HTML = 256 * 1024;

/** User Timing marks (the bench reads them). */
export const SNAPSHOT_SHOWN_MARK = 'shelf:panel-snapshot-shown';
export const TAKEN_OVER_MARK = 'shelf:panel-taken-over';

interface Kept {
  /** The list's kept first page: its storage key. */
  list: string;
  /** That page's keptAt. */
  version: number;
  /** The build that drew it: its page script, named by content hash. */
  build: string;
  html: string;
}

interface HeldClick {
  type: 'click' | 'auxclick';
  target: Element;
  /** Child indexes from #root down to the target. */
  path: number[];
  init: MouseEventInit;
}

// One page, two bundles: the classic early script and the page's module.
const HOLDER = Symbol.for('shelf.panelSnapshot');
const DECIDING = Symbol.for('shelf.panelSnapshotDeciding');
type HolderWindow = Window & { [HOLDER]?: { release(): HeldClick[] } | 'taken over'; [DECIDING]?: Promise<void> };

/** Run by sidepanel-early.js with its reads and showSnapshot, for the page to wait for (keptPaintShown). */
export function deciding(win: Window, decision: Promise<void>): Promise<void> {
  (win as HolderWindow)[DECIDING] = decision.catch(() => undefined);
  return decision;
}

function readKept(win: Window): Kept | null {
  try {
    const kept: unknown = JSON.parse(win.localStorage.getItem(PANEL_PAINT_KEY) ?? 'null');
    if (typeof kept !== 'object' || kept === null) return null;
    const { list, version, build, html } = kept as Record<string, unknown>;
    return typeof list === 'string' && typeof version === 'number' && typeof build === 'string' && typeof html === 'string' ? { list, version, build, html } : null;
  } catch {
    return null; // storage the page may not use, or not JSON: nothing to show
  }
}

/** The keptAt of a kept first page as storage holds it (its JSON text, or the object an earlier version stored). */
export function versionOf(raw: unknown): number | null {
  try {
    const page: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    const version = typeof page === 'object' && page !== null ? (page as { keptAt?: unknown }).keptAt : undefined;
    return typeof version === 'number' ? version : null;
  } catch {
    return null;
  }
}

/** The build of the page's JavaScript: a paint kept by another build may not be what this one draws. */
const buildOf = (doc: Document): string => doc.querySelector('script[type="module"]')?.getAttribute('src') ?? '';

const pathTo = (root: Element, target: Element): number[] => {
  const path: number[] = [];
  for (let node = target; node !== root && node.parentElement; node = node.parentElement) path.unshift([...node.parentElement.children].indexOf(node));
  return path;
};

const atPath = (root: Element, path: number[]): Element | undefined => path.reduce<Element | undefined>((node, i) => node?.children[i], root);

/** A stylesheet the page links to and has not loaded yet: the paint would not show before it anyway. */
function stylesheetsLoaded(doc: Document): Promise<void> {
  const pending = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter((link) => !link.sheet);
  // A sheet that fails to load settles too: the page waits for this, and must never wait for good.
  const settled = (link: HTMLLinkElement) =>
    new Promise((resolve) => {
      link.addEventListener('load', resolve, { once: true });
      link.addEventListener('error', resolve, { once: true });
    });
  return Promise.all(pending.map(settled)).then(() => undefined);
}

/**
 * Run by sidepanel-early.js once it knows the list the panel opens on and the
 * version of its kept first page: shows the kept paint of that list at that
 * version, unless React has the panel already.
 */
export async function showSnapshot(win: Window, list: string, version: number | null): Promise<void> {
  const kept = import.meta.env.MODE === 'development' ? null : readKept(win);
  if (!kept) return;
  // Another list's paint stays for that list; a paint of an older page (or of an account signed out since) goes.
  if (kept.list === list && kept.version !== version) forgetPanelPaint(win);
  if (kept.list !== list || kept.version !== version) return;
  const doc = win.document;
  // Not DOMContentLoaded, which waits for the page's module to run: #root is parsed long before (the page is a few lines).
  if (!doc.getElementById('root')) await new Promise((resolve) => doc.addEventListener('DOMContentLoaded', resolve, { once: true }));
  if (kept.build !== buildOf(doc)) return forgetPanelPaint(win);
  await stylesheetsLoaded(doc);
  const root = doc.getElementById('root');
  if (!root || root.childElementCount > 0 || (win as HolderWindow)[HOLDER] === 'taken over') return;
  // Parsed in a document of its own and moved in, rather than set as innerHTML, which Firefox's add-on
  // linter flags wherever the markup comes from (here: React's own, from this page's storage).
  const paint = new DOMParser().parseFromString(kept.html, 'text/html').body;
  for (const time of paint.querySelectorAll<HTMLTimeElement>('time[datetime]')) time.textContent = relativeDate(time.dateTime);
  root.replaceChildren(...paint.childNodes);

  const held: HeldClick[] = [];
  const onClick = (e: MouseEvent) => {
    if (!(e.target instanceof Element) || !root.contains(e.target)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const { button, ctrlKey, metaKey, shiftKey, altKey } = e;
    held.push({ type: e.type as HeldClick['type'], target: e.target, path: pathTo(root, e.target), init: { button, ctrlKey, metaKey, shiftKey, altKey, bubbles: true, cancelable: true } });
  };
  const onKey = (e: Event) => e.target instanceof Node && root.contains(e.target) && e.preventDefault();
  const stop = captureOnDocument(doc, { click: onClick, auxclick: onClick, keydown: onKey, beforeinput: onKey });
  (win as HolderWindow)[HOLDER] = {
    release() {
      stop();
      return held.splice(0);
    },
  };
  win.performance.mark(SNAPSHOT_SHOWN_MARK);
}

/**
 * Run by the page before React's first render, once its reads are in: settles
 * when the early script has decided, and its kept paint, if one was put in, has
 * been on screen. Without this wait React, a few ms behind, often replaced the
 * paint before the browser had painted a frame of it.
 */
export async function keptPaintShown(win: Window): Promise<void> {
  await (win as HolderWindow)[DECIDING]; // absent when the early script has not run yet: it shows nothing once React has drawn
  const holder = (win as HolderWindow)[HOLDER];
  if (holder === undefined || holder === 'taken over') return;
  // A frame's callbacks run before its paint; a task queued from one runs after it.
  await new Promise((resolve) => win.requestAnimationFrame(() => win.setTimeout(resolve, 0)));
}

/**
 * Run by the page once React's first commit has replaced the kept paint: stops
 * holding, and replays each held click on what React drew in its place, when
 * that is the same element. Answers whether a kept paint was shown.
 */
export function takeOverSnapshot(win: Window, root: Element): boolean {
  const holder = (win as HolderWindow)[HOLDER];
  (win as HolderWindow)[HOLDER] = 'taken over';
  win.performance.mark(TAKEN_OVER_MARK);
  if (holder === undefined || holder === 'taken over') return false;
  for (const { type, target, path, init } of holder.release()) {
    const now = atPath(root, path);
    if (!now || now.outerHTML !== target.outerHTML) continue; // another row is there now: the click was not meant for it
    if (now instanceof HTMLInputElement && now.type !== 'checkbox') now.focus();
    else now.dispatchEvent(new MouseEvent(type, init));
  }
  return true;
}

/** Run by the page after its first commit on a list's kept first page: that paint, for the next opening. */
export function keepSnapshot(win: Window, root: Element, list: string, version: number): void {
  if (import.meta.env.MODE === 'development') return;
  const html = root.innerHTML;
  if (html.length > MAX_HTML) return;
  try {
    win.localStorage.setItem(PANEL_PAINT_KEY, JSON.stringify({ list, version, build: buildOf(win.document), html } satisfies Kept));
  } catch {
    // not kept: the next opening waits for React
  }
}
