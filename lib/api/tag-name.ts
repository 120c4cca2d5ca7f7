import { mixesScripts } from './mixed-script.ts';

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
 * grapheme joiner and the Hangul fillers. Not tab, new line and the like (white space,
 * collapsed below), nor a zero-width joiner between two emoji, which makes one emoji (👩‍💻).
 */
const INVISIBLE =
  /(?<!\p{Extended_Pictographic}\p{Emoji_Modifier}?\uFE0F?)\u200D|\u200D(?!\p{Extended_Pictographic})|(?![\t-\r\u200D])[\p{Cc}\p{Cf}\u034F\u115F\u1160\u3164\uFFA0]/gu;

/**
 * Invisible characters dropped, Unicode NFC (one spelling for "é"), each level
 * trimmed, inner white space collapsed: " dev /  java  script " → "dev/java script".
 */
export const normaliseTagName = (raw: string): string =>
  raw
    .replace(INVISIBLE, '')
    .normalize('NFC')
    .split('/')
    .map((segment) => segment.trim().replace(/\s+/g, ' '))
    .join('/');

/** The checks a normalised name must pass, each with the message the API gives. */
export const TAG_NAME_CHECKS: readonly { ok: (name: string) => boolean; message: string }[] = [
  { ok: (name) => name.length > 0, message: 'must not be empty' },
  { ok: (name) => name.split('/').every((segment) => segment.length > 0), message: 'must not have an empty level (as in a//b)' },
  // A look-alike of another tag ("pаypal" with a Cyrillic "а") would sit beside it, unnoticed.
  {
    ok: (name) => !mixesScripts(name),
    message: 'must not mix alphabets within a word (such as a Cyrillic letter among Latin ones), so that it cannot pass for another tag',
  },
];

/** What the user typed as a tag name, normalised; null when it cannot be one. */
export function parseTagName(raw: string): string | null {
  if (raw.length > MAX_TAG_NAME_LENGTH) return null;
  const name = normaliseTagName(raw);
  return TAG_NAME_CHECKS.every((check) => check.ok(name)) ? name : null;
}

/** What is wrong with `raw` as a tag's name, in the user's words; null when it can be a tag. */
export function tagNameProblem(raw: string): string | null {
  if (raw.length > MAX_TAG_NAME_LENGTH) return `A tag can be at most ${MAX_TAG_NAME_LENGTH} characters long; this one has ${raw.length}.`;
  const failed = TAG_NAME_CHECKS.find((check) => !check.ok(normaliseTagName(raw)));
  return failed ? `A tag ${failed.message}.` : null;
}
