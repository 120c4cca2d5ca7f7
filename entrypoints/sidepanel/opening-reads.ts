import { readEarly } from '../../lib/storage/early-reads.ts';
import { PANEL_PLACE_KEY, firstPageKey } from '../../lib/storage/opening-keys.ts';

const isListPlace = (place: unknown): place is { source: unknown } =>
  typeof place === 'object' && place !== null && 'kind' in place && place.kind === 'list' && 'source' in place;

/** Run by sidepanel-early.js: reads the place the panel opens on and, for a list, its kept first page (opening.ts takes both). */
export async function startOpeningReads(win: Window): Promise<void> {
  const place = await readEarly(win, PANEL_PLACE_KEY);
  if (isListPlace(place)) void readEarly(win, firstPageKey(JSON.stringify(place.source)));
}
