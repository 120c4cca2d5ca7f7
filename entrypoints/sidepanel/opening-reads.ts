import { readEarly, readEarlyTogether } from '../../lib/storage/early-reads.ts';
import { LIBRARY_SORTS_KEY, PANEL_PLACE_KEY, firstPageKey } from '../../lib/storage/opening-keys.ts';
import { deciding, showSnapshot, versionOf } from './snapshot.ts';

const isListPlace = (place: unknown): place is { source: unknown } =>
  typeof place === 'object' && place !== null && 'kind' in place && place.kind === 'list' && 'source' in place;

/**
 * The page's own note (in its localStorage, read at once) of the first page it opened on last: with it,
 * the place and that page are read in one storage request rather than one after the other. The place
 * read decides; a note that names another list only costs the second request it saves otherwise.
 */
const OPENING_NOTE = 'shelf.panelOpening';

const firstPageOf = (place: unknown) => (isListPlace(place) ? firstPageKey(JSON.stringify(place.source)) : null);

function noted(win: Window): `local:${string}` | null {
  try {
    const key = win.localStorage?.getItem(OPENING_NOTE) ?? null;
    return key?.startsWith(firstPageKey('')) ? (key as `local:${string}`) : null;
  } catch {
    return null; // storage the page may not use: the reads go one after the other
  }
}

/**
 * Run by sidepanel-early.js: reads the place the panel opens on and, for a list, its kept first page
 * (opening.ts takes both), and shows that list's kept paint when it is of that page (snapshot.ts).
 */
export function startOpeningReads(win: Window): Promise<void> {
  return deciding(win, readAndShow(win));
}

async function readAndShow(win: Window): Promise<void> {
  const note = noted(win);
  // The lists' orders ride along: opening.ts takes them from here (a list sorted otherwise opens without its kept page).
  const [place, sorts, notedPage] = readEarlyTogether(win, note === null ? [PANEL_PLACE_KEY, LIBRARY_SORTS_KEY] : [PANEL_PLACE_KEY, LIBRARY_SORTS_KEY, note]);
  for (const read of [sorts, notedPage]) read?.catch(() => undefined); // a failed read the page may not take: heard where it is taken
  const key = firstPageOf(await place);
  if (key === null) return;
  const page = key === note ? notedPage! : readEarly(win, key);
  await showSnapshot(win, key, versionOf(await page.catch(() => null)));
}

/** Run by the page once it knows its place: the note for the next opening's early reads. */
export function noteOpening(win: Window, place: unknown): void {
  const key = firstPageOf(place);
  try {
    if (key === noted(win)) return;
    if (key === null) win.localStorage?.removeItem(OPENING_NOTE);
    else win.localStorage?.setItem(OPENING_NOTE, key);
  } catch {
    // not kept: the next opening reads one after the other
  }
}
