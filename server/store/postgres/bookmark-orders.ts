import type { CursorKey, CursorOrder } from '../../bookmarks/cursor.ts';

/** The placeholders of the cursor's values in a statement (each added when first used: PostgreSQL refuses unused parameters). */
export interface AfterParams {
  time(): string;
  text(): string;
  seq(): string;
}

interface Order {
  /** ORDER BY terms over `b`; each order ends in seq, so that no two rows tie. */
  by: string;
  /** Rows strictly after the cursor; the leading range term lets the index scan start at the cursor. */
  after(p: AfterParams): string;
  /** Whether the rows after a cursor have earlier times (or, for title, none that count). */
  earlier: boolean;
}

/**
 * The keyset orders of bookmark pages, each served by an index of 001-schema.sql; cursors:
 * ORDER_KEYS (server/store/shared/bookmark-pages.ts). Titles compare as SQLite's NOCASE does:
 * lower() under "C" folds ASCII only, and the cursor's text is folded the same way (a text
 * parameter would otherwise be lowered under the database's default collation).
 */
export const ORDERS: Record<CursorOrder, Order> = {
  newest: {
    by: 'b.created_at DESC, b.seq DESC',
    after: (p) => `b.created_at <= ${p.time()} AND (b.created_at < ${p.time()} OR b.seq < ${p.seq()})`,
    earlier: true,
  },
  oldest: {
    by: 'b.created_at ASC, b.seq ASC',
    after: (p) => `b.created_at >= ${p.time()} AND (b.created_at > ${p.time()} OR b.seq > ${p.seq()})`,
    earlier: false,
  },
  title: {
    by: 'lower(b.title) ASC, b.seq ASC',
    after: (p) =>
      `lower(b.title) >= lower(${p.text()}::text COLLATE "C") AND (lower(b.title) > lower(${p.text()}::text COLLATE "C") OR b.seq > ${p.seq()})`,
    earlier: true,
  },
  domain: {
    by: 'b.domain ASC, b.created_at DESC, b.seq DESC',
    after: (p) => `b.domain >= ${p.text()} AND (b.domain > ${p.text()} OR b.created_at < ${p.time()}
      OR (b.created_at = ${p.time()} AND b.seq < ${p.seq()}))`,
    earlier: true,
  },
  trash: {
    by: 'b.deleted_at DESC, b.seq DESC',
    after: (p) => `b.deleted_at <= ${p.time()} AND (b.deleted_at < ${p.time()} OR b.seq < ${p.seq()})`,
    earlier: true,
  },
};

const BIGINT_MAX = 2n ** 63n - 1n;
const BIGINT_MIN = -(2n ** 63n);

/**
 * A cursor's time and seq as BIGINT parameters selecting the same rows. Times here are whole
 * numbers in BIGINT, but a cursor may carry what SQLite keeps (fractions, values past BIGINT,
 * Infinity): such a time becomes the nearest whole bound on the side of the rows after it, with
 * a seq that lets every row at that bound through (or none, at the low end).
 */
export function cursorBounds(order: CursorOrder, key: CursorKey): { time: string; seq: string } {
  const bounds = (time: bigint, seq: bigint) => ({ time: String(time), seq: String(seq) });
  if (key.time >= Number(BIGINT_MAX)) return bounds(BIGINT_MAX, BIGINT_MAX);
  if (key.time < Number(BIGINT_MIN)) return bounds(BIGINT_MIN, 0n);
  if (Number.isInteger(key.time)) return bounds(BigInt(key.time), BigInt(key.seq));
  return ORDERS[order].earlier ? bounds(BigInt(Math.floor(key.time)), BIGINT_MAX) : bounds(BigInt(Math.ceil(key.time)), 0n);
}
