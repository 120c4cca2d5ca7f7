import { sendLibrary } from './send.ts';

/**
 * Tells the background the user opened a bookmark from Shelf (its "Times opened"). Nothing waits for it and a
 * failure is not the user's concern: the link opens either way.
 */
export function recordOpen(id: string): void {
  sendLibrary('bookmarkOpened', { id }).catch((err: unknown) => console.warn('Shelf: could not record an open', err));
}
