/**
 * The rule for hierarchical tag names, as plain code (no schema library), so
 * that the popup's tag field can apply it before any schema loads. The TagName
 * schema in bookmarks.ts is built on it.
 */
export const MAX_TAG_NAME_LENGTH = 200;

/**
 * Characters that show nothing, or change how the text around them shows, so that two
 * names that look the same would be two tags: controls, format characters (zero-width
 * space and joiners, bidi controls, soft hyphen, byte order mark), the combining
 * grapheme joiner and the Hangul fillers.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u034F\u115F\u1160\u3164\uFFA0]/gu;
/** Tab, new line and the like are white space: collapsed to a space, not dropped. */
const WHITE_SPACE_CONTROL = /[\t\n\v\f\r]/;
/** A zero-width joiner between two emoji is part of one emoji (👩‍💻), not hidden text. */
const EMOJI_BEFORE = /\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

const dropInvisible = (text: string): string =>
  text.replace(INVISIBLE, (ch: string, at: number) => {
    if (WHITE_SPACE_CONTROL.test(ch)) return ch;
    const joinsEmoji = ch === '\u200D' && EMOJI_BEFORE.test(text.slice(0, at)) && EMOJI_AFTER.test(text.slice(at + 1));
    return joinsEmoji ? ch : '';
  });

/**
 * Invisible characters dropped, Unicode NFC (one spelling for "é"), each level
 * trimmed, inner white space collapsed: " dev /  java  script " → "dev/java script".
 */
export const normaliseTagName = (raw: string): string =>
  dropInvisible(raw)
    .normalize('NFC')
    .split('/')
    .map((segment) => segment.trim().replace(/\s+/g, ' '))
    .join('/');

/** The two checks a normalised name must pass, each with the message the API gives. */
export const TAG_NAME_CHECKS: readonly { ok: (name: string) => boolean; message: string }[] = [
  { ok: (name) => name.length > 0, message: 'must not be empty' },
  { ok: (name) => name.split('/').every((segment) => segment.length > 0), message: 'must not have an empty level (as in a//b)' },
];

/** What the user typed as a tag name, normalised; null when it cannot be one. */
export function parseTagName(raw: string): string | null {
  if (raw.length > MAX_TAG_NAME_LENGTH) return null;
  const name = normaliseTagName(raw);
  return TAG_NAME_CHECKS.every((check) => check.ok(name)) ? name : null;
}
