import type { CreateBookmarkBody } from '../../lib/api/bookmarks.ts';
import type { ServerDeps } from '../deps.ts';
import type { SavedBookmark } from '../store/bookmarks.ts';
import { detectFields } from './detect.ts';

/**
 * POST /bookmarks, "save this URL". A URL the user already has (active or in the
 * trash) is updated without fetching the page. Otherwise the page is fetched
 * outside any transaction, and the save re-checks for the URL inside its own, so
 * that simultaneous saves of one URL create one bookmark.
 */
export async function saveBookmark(
  { store, clock, fetchMetadata }: Pick<ServerDeps, 'store' | 'clock' | 'fetchMetadata'>,
  userId: string,
  input: CreateBookmarkBody,
): Promise<SavedBookmark> {
  const existing = await store.bookmarks.saveExisting(userId, input, clock.now());
  if (existing !== null) return { bookmark: existing, created: false };
  const detected = await detectFields(input, fetchMetadata);
  return store.bookmarks.save(userId, input, detected, clock.now());
}
