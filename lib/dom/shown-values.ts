import { isSafeColor } from '../api/color.ts';
import { isHttpUrl } from '../api/common.ts';

/**
 * Values from the API checked again where a page renders them: a server (an older version, or one
 * that is not ours) may send what ours refuses, and an image or a CSS value is fetched or applied the
 * moment it is drawn.
 */

/** The image to draw, or null: http(s) only (the server's own storage serves covers over http(s) too). */
export function shownImage(url: string | null | undefined): string | null {
  return url && isHttpUrl(url) ? url : null;
}

/** A style that paints the colour as a background colour only (never a background image), or null. */
export function colorDot(color: string | null | undefined): { backgroundColor: string } | null {
  return color && isSafeColor(color) ? { backgroundColor: color } : null;
}
