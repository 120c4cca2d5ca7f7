import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PANEL_PAINT_KEY } from '../../lib/storage/panel-paint.ts';
import { SNAPSHOT_SHOWN_MARK, TAKEN_OVER_MARK, deciding, keepSnapshot, keptPaintShown, showSnapshot, takeOverSnapshot, versionOf } from '../../entrypoints/sidepanel/snapshot.ts';

const LIST = 'local:firstPage:{"kind":"all"}';
const ROW = (title: string) =>
  `<div role="region"><ul><li><div><input type="checkbox" aria-label="Select ${title}"><a href="https://example.com/${title}">${title}</a><button type="button" aria-label="Move ${title}">Move</button></div></li></ul></div>`;

/** A fresh panel page: the build's script in the head, an empty #root. */
function freshPage(build = '/chunks/sidepanel-abc.js'): HTMLElement {
  document.head.innerHTML = `<script type="module" src="${build}"></script>`;
  document.body.innerHTML = '<div id="root"></div>';
  return document.getElementById('root')!;
}

/** The panel as React draws it, with its handlers: what each handler heard. */
function reactDraws(root: HTMLElement, html: string): string[] {
  root.innerHTML = html;
  const heard: string[] = [];
  root.addEventListener('click', (e) => {
    const { ctrlKey, button } = e;
    heard.push(`${e.type} ${(e.target as Element).textContent || (e.target as Element).getAttribute('aria-label')} ctrl=${ctrlKey} button=${button}`);
    e.preventDefault();
  });
  root.addEventListener('auxclick', (e) => heard.push(`auxclick ${(e.target as Element).textContent} button=${e.button}`));
  return heard;
}

/** A page loaded afresh: what snapshot.ts leaves on the window (held clicks, or that React has the page) gone. */
const forgetTakeOver = () => {
  delete (window as unknown as Record<symbol, unknown>)[Symbol.for('shelf.panelSnapshot')];
  delete (window as unknown as Record<symbol, unknown>)[Symbol.for('shelf.panelSnapshotDeciding')];
};

const marks = (name: string) => performance.getEntriesByName(name).length;

// The pages' script tags name the build; happy-dom loads no script, and need not say so.
(window as unknown as { happyDOM: { settings: { handleDisabledFileLoadingAsSuccess: boolean } } }).happyDOM.settings.handleDisabledFileLoadingAsSuccess = true;

beforeEach(() => {
  localStorage.clear();
  performance.clearMarks();
  // Each test's page starts as no panel has been taken over yet.
  forgetTakeOver();
});
afterEach(() => vi.restoreAllMocks());

/** A first opening drew `html` from the page at `version`; it is kept for the next opening. */
function keptFrom(html: string, version = 7): void {
  const root = freshPage();
  root.innerHTML = html;
  keepSnapshot(window, root, LIST, version);
  forgetTakeOver();
}

describe("the side panel's kept paint", () => {
  it('shows the paint of the same list, version and build at once, before React', async () => {
    keptFrom(ROW('Alpha'));
    const root = freshPage();
    await showSnapshot(window, LIST, 7);
    expect(root.innerHTML).toBe(ROW('Alpha'));
    expect(marks(SNAPSHOT_SHOWN_MARK)).toBe(1);
    reactDraws(root, ROW('Alpha'));
    expect(takeOverSnapshot(window, root)).toBe(true);
    expect(marks(TAKEN_OVER_MARK)).toBe(1);
  });

  it('shows nothing of an older version of the page, and forgets that paint', async () => {
    keptFrom(ROW('Alpha'), 7);
    const root = freshPage();
    await showSnapshot(window, LIST, 8);
    expect(root.childElementCount).toBe(0);
    await showSnapshot(window, LIST, 7);
    expect(root.childElementCount).toBe(0);
  });

  it('shows nothing of another list, and keeps that paint for that list', async () => {
    keptFrom(ROW('Alpha'));
    const root = freshPage();
    await showSnapshot(window, 'local:firstPage:{"kind":"favorites"}', 7);
    expect(root.childElementCount).toBe(0);
    await showSnapshot(window, LIST, 7);
    expect(root.innerHTML).toBe(ROW('Alpha'));
  });

  it('shows nothing when no page is kept now (signed out, or a failed read), and forgets the paint', async () => {
    keptFrom(ROW('Alpha'));
    const root = freshPage();
    await showSnapshot(window, LIST, null);
    expect(root.childElementCount).toBe(0);
    expect(localStorage.getItem(PANEL_PAINT_KEY)).toBeNull();
  });

  it('tells each row’s age again for now, as React will', async () => {
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000).toISOString();
    keptFrom(`<p><time datetime="${threeDaysAgo}">just now</time></p>`);
    const root = freshPage();
    await showSnapshot(window, LIST, 7);
    expect(root.querySelector('time')!.textContent).toBe('3 days ago');
  });

  it('waits for the page’s stylesheet, and shows the paint when that stylesheet fails to load as when it loads', async () => {
    keptFrom(ROW('Alpha'));
    for (const outcome of ['load', 'error']) {
      const root = freshPage();
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      Object.defineProperty(link, 'sheet', { value: null });
      document.head.append(link);
      let settled = false;
      const showing = showSnapshot(window, LIST, 7).then(() => void (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(settled).toBe(false);
      link.dispatchEvent(new Event(outcome));
      await showing;
      expect(root.innerHTML).toBe(ROW('Alpha'));
      forgetTakeOver();
    }
  });

  it('shows nothing another build drew (an update changes the markup), and forgets it', async () => {
    keptFrom(ROW('Alpha'));
    let root = freshPage('/chunks/sidepanel-new.js');
    await showSnapshot(window, LIST, 7);
    expect(root.childElementCount).toBe(0);
    root = freshPage();
    await showSnapshot(window, LIST, 7);
    expect(root.childElementCount).toBe(0);
  });

  it('leaves the panel to React when React drew first', async () => {
    keptFrom(ROW('Alpha'));
    let root = freshPage();
    takeOverSnapshot(window, root);
    await showSnapshot(window, LIST, 7);
    expect(root.childElementCount).toBe(0);

    forgetTakeOver();
    root = freshPage();
    root.innerHTML = ROW('Drawn by React');
    await showSnapshot(window, LIST, 7);
    expect(root.innerHTML).toBe(ROW('Drawn by React'));
    expect(marks(SNAPSHOT_SHOWN_MARK)).toBe(0);
  });

  it('takes a kept value it cannot read as nothing kept', async () => {
    for (const bad of ['{', '42', JSON.stringify({ list: LIST, version: '7', build: '/chunks/sidepanel-abc.js', html: 'x' })]) {
      localStorage.setItem(PANEL_PAINT_KEY, bad);
      const root = freshPage();
      await showSnapshot(window, LIST, 7);
      expect(root.childElementCount).toBe(0);
    }
  });

  it('keeps no paint larger than any the panel draws', () => {
    const root = freshPage();
    root.innerHTML = `<p>${'x'.repeat(300 * 1024)}</p>`;
    keepSnapshot(window, root, LIST, 7);
    expect(localStorage.getItem(PANEL_PAINT_KEY)).toBeNull();
  });

  it('holds clicks made on the paint and replays them, with their keys, on what React draws in its place', async () => {
    keptFrom(ROW('Alpha'));
    const root = freshPage();
    await showSnapshot(window, LIST, 7);
    const pageHeard: string[] = [];
    document.addEventListener('click', () => pageHeard.push('click'));
    const link = root.querySelector('a')!;
    const held = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    link.dispatchEvent(held);
    root.querySelector('button')!.dispatchEvent(new MouseEvent('auxclick', { bubbles: true, cancelable: true, button: 1 }));
    expect(held.defaultPrevented).toBe(true); // the paint's link does not navigate the panel
    expect(pageHeard).toEqual([]);

    const heard = reactDraws(root, ROW('Alpha'));
    takeOverSnapshot(window, root);
    expect(heard).toEqual(['click Alpha ctrl=true button=0', 'auxclick Move button=1']);
  });

  it('drops a held click when React draws another row where it was', async () => {
    keptFrom(ROW('Alpha'));
    const root = freshPage();
    await showSnapshot(window, LIST, 7);
    root.querySelector('a')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    const heard = reactDraws(root, ROW('Beta'));
    takeOverSnapshot(window, root);
    expect(heard).toEqual([]);
  });

  it('stops holding once React has the panel, and lets no typing into the paint', async () => {
    keptFrom(ROW('Alpha'));
    const root = freshPage();
    await showSnapshot(window, LIST, 7);
    const key = new KeyboardEvent('keydown', { key: 'a', bubbles: true, cancelable: true });
    root.querySelector('input')!.dispatchEvent(key);
    expect(key.defaultPrevented).toBe(true);

    const heard = reactDraws(root, ROW('Alpha'));
    takeOverSnapshot(window, root);
    root.querySelector('a')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    const later = new KeyboardEvent('keydown', { key: 'a', bubbles: true, cancelable: true });
    root.querySelector('input')!.dispatchEvent(later);
    expect(heard).toEqual(['click Alpha ctrl=false button=0']);
    expect(later.defaultPrevented).toBe(false);
  });

  it('lets React draw once the early script has decided and the kept paint has had a frame on screen', async () => {
    keptFrom(ROW('Alpha'));
    const root = freshPage();
    const frames = vi.spyOn(window, 'requestAnimationFrame');
    let decided = false;
    const showing = deciding(window, showSnapshot(window, LIST, 7).then(() => void (decided = true)));
    await keptPaintShown(window);
    expect(decided).toBe(true);
    expect(root.innerHTML).toBe(ROW('Alpha'));
    expect(frames).toHaveBeenCalledTimes(1);
    await showing;
  });

  it('lets React draw at once when there is no kept paint, or no early script', async () => {
    const frames = vi.spyOn(window, 'requestAnimationFrame');
    await keptPaintShown(window);
    freshPage();
    await deciding(window, showSnapshot(window, LIST, 7));
    await keptPaintShown(window);
    expect(frames).not.toHaveBeenCalled();
  });

  it('reads the version of a kept page as storage holds it', () => {
    expect(versionOf(JSON.stringify({ bookmarks: [], keptAt: 12 }))).toBe(12);
    expect(versionOf({ bookmarks: [], keptAt: 13 })).toBe(13);
    for (const raw of [undefined, null, '{', '{"keptAt":"12"}', 42]) expect(versionOf(raw)).toBeNull();
  });
});
