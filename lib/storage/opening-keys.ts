/**
 * The storage keys the side panel opens with, apart from library-items.ts so
 * that sidepanel-early.js reads them without loading the schemas.
 */
export const PANEL_PLACE_KEY = 'sidePanelPlace';

/** A list's kept first page, by its source as JSON. */
export const firstPageKey = (source: string): string => `firstPage:${source}`;
