/**
 * The rule for hierarchical tag names, as plain code (no schema library), so
 * that the popup's tag field can apply it before any schema loads. The TagName
 * schema in bookmarks.ts is built on it.
 */
export const MAX_TAG_NAME_LENGTH = 200;

/** Each level trimmed, inner white space collapsed: " dev /  java  script " → "dev/java script". */
export const normaliseTagName = (raw: string): string =>
  raw
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
