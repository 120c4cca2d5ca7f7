import type { BookmarkType } from '../../../lib/api/bookmarks.ts';
import type { ExportBookmarkRow } from '../jobs.ts';

/** A bookmark as either backend's export page reads it: its tag names as a JSON array text, sorted by key. */
export interface ExportPageRow {
  seq: number;
  url: string;
  title: string;
  description: string;
  note: string;
  type: string;
  is_favorite: number;
  collection_id: string | null;
  created_at: number;
  tag_names: string;
}

export function toExportRow({ url, title, description, note, ...r }: ExportPageRow): ExportBookmarkRow {
  const tags = JSON.parse(r.tag_names) as string[];
  return { url, title, description, note, type: r.type as BookmarkType, isFavorite: r.is_favorite === 1, tags, collectionId: r.collection_id, createdAt: r.created_at };
}
