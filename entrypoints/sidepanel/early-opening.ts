import { browser } from 'wxt/browser';
import { PANEL_PLACE_KEY, firstPageKey } from '../../lib/storage/opening-keys.ts';

/**
 * What the side panel opens on, as stored, read by sidepanel-early.js while the
 * panel's own JavaScript loads: the place it was left at and, for a list, the
 * list's kept first page. Unchecked here (the early script loads no schemas):
 * opening.ts checks both with the storage items' schemas.
 */
export interface EarlyOpening {
  place: unknown;
  /** The list's source as JSON, as its first page is kept under; null when the place is no list. */
  source: string | null;
  firstPage: unknown;
}

// One page, two bundles: the classic early script and the app's module.
const HOLDER = Symbol.for('shelf.sidepanel.opening');
type HolderWindow = Window & { [HOLDER]?: Promise<EarlyOpening> };

const readLocal = async (key: string): Promise<unknown> => (await browser.storage.local.get(key))[key];

async function readOpening(): Promise<EarlyOpening> {
  const place = await readLocal(PANEL_PLACE_KEY);
  const source = isListPlace(place) ? JSON.stringify(place.source) : null;
  return { place, source, firstPage: source === null ? null : await readLocal(firstPageKey(source)) };
}

const isListPlace = (place: unknown): place is { source: unknown } =>
  typeof place === 'object' && place !== null && 'kind' in place && place.kind === 'list' && 'source' in place;

/** Run by sidepanel-early.js, the page's first script. */
export function startEarlyOpening(win: Window): void {
  (win as HolderWindow)[HOLDER] = readOpening();
}

/** The early read, once (undefined when the early script did not run, as under test); its failure is the app's own read's to meet. */
export function takeEarlyOpening(win: Window): Promise<EarlyOpening> | undefined {
  const early = (win as HolderWindow)[HOLDER];
  delete (win as HolderWindow)[HOLDER];
  return early;
}
