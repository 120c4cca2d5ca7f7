import type { Bookmark } from '../../../lib/api/bookmarks.ts';

/** A bookmark as the server answers it, with the fields a test cares about given. */
export const savedBookmark = (fields: Partial<Bookmark> = {}): Bookmark => ({
  id: 'bm_1',
  url: 'https://example.com/a',
  title: 'Saved',
  description: '',
  excerpt: '',
  note: '',
  type: 'link',
  isFavorite: false,
  tags: [],
  collectionId: null,
  domain: 'example.com',
  favicon: '',
  coverImage: null,
  clickCount: 0,
  metadataStatus: 'complete',
  linkStatus: 'ok',
  lastCheckedAt: '2025-01-01T00:00:00.000Z',
  httpStatusCode: 200,
  createdAt: '2025-01-01T00:00:00.000Z',
  ...fields,
});
