import type { BookmarkSort } from '../../lib/api/bookmarks.ts';
import { invalid } from '../http/api-error.ts';

/** The orders a bookmark cursor can continue: the list's sorts, and the trash (most recently trashed first). */
export type CursorOrder = BookmarkSort | 'trash';

/**
 * The sort-key values of the last row of a page. `time` is created_at (deleted_at
 * for the trash, 0 for title), `text` the title or domain ('' for the others).
 */
export interface CursorKey {
  order: CursorOrder;
  seq: number;
  time: number;
  text: string;
}

// The time is whatever the row holds, written as String(number) writes it: stored values
// from before imports checked dates can be negative, above 2^53 (1e16) or fractional.
const SHAPE = /^(newest|oldest|title|domain|trash):(\d{1,16}):(-?(?:\d{1,400}(?:\.\d{1,400})?(?:e[+-]\d{1,3})?|Infinity)):([\s\S]*)$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Opaque to clients: base64url of "order:seq:time:text". The text goes last and
 * raw, so that a long title costs no escaping (Cursor allows 12,000 characters).
 */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`${key.order}:${key.seq}:${key.time}:${key.text}`, 'utf8').toString('base64url');
}

/** Reads a cursor made for `order`; anything else is a VALIDATION_ERROR on `cursor`. */
export function decodeCursor(raw: string, order: CursorOrder): CursorKey {
  const bytes = BASE64URL.test(raw) ? Buffer.from(raw, 'base64url') : null;
  // Buffer skips characters it cannot read; a cursor that does not round-trip was not made here.
  const match = bytes !== null && bytes.toString('base64url') === raw ? SHAPE.exec(bytes.toString('utf8')) : null;
  if (match === null) throw invalid('query', 'cursor', 'is not a cursor from this list; start again without one');
  const [, made, seq, time, text] = match as unknown as [string, CursorOrder, string, string, string];
  if (made !== order) {
    throw invalid('query', 'cursor', `was made for ${describe(made)}, not ${describe(order)}; start again without one`);
  }
  return { order, seq: Number(seq), time: Number(time), text };
}

const describe = (order: CursorOrder): string => (order === 'trash' ? 'the trash' : `sortBy=${order}`);
