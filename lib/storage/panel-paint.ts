/** The side panel's last paint, in the extension pages' shared localStorage (entrypoints/sidepanel/snapshot.ts). */
export const PANEL_PAINT_KEY = 'shelf.panelSnapshot';

/** Forgets the panel's last paint: it is of a page no longer kept, or of an account that left. */
export function forgetPanelPaint(win: Window = window): void {
  try {
    win.localStorage.removeItem(PANEL_PAINT_KEY);
  } catch {
    // storage the page may not use: nothing was kept there
  }
}
