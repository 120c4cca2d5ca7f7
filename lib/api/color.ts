import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.ts';

/**
 * The colours a collection, tag or smart folder may carry. A colour becomes a CSS value where the
 * extension draws it, so only values that can be nothing but a colour pass: `#rgb`, `#rrggbb` or one
 * of these CSS names (any case). Anything else (`url(...)`, `var(...)`, gradients) could make a page
 * fetch from elsewhere or draw more than a dot.
 */
export const COLOR_NAMES = [
  'black', 'gray', 'grey', 'silver', 'white', 'brown', 'maroon', 'red', 'orange', 'gold', 'yellow', 'olive', 'lime',
  'green', 'teal', 'aqua', 'cyan', 'blue', 'navy', 'indigo', 'purple', 'violet', 'fuchsia', 'magenta', 'pink',
] as const;

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const NAMED = /* @__PURE__ */ new Set<string>(COLOR_NAMES);

export function isSafeColor(value: string): boolean {
  return HEX_COLOR.test(value) || NAMED.has(value.toLowerCase());
}

/** A colour as sent: surrounding white space dropped; '' means none. */
export const Color = lazySchema(() => z.string().check(
  z.trim(),
  z.maxLength(32),
  z.refine((value) => value === '' || isSafeColor(value), `must be #rgb, #rrggbb or a colour name (${/* @__PURE__ */ COLOR_NAMES.join(', ')})`),
));
