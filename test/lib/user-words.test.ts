import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** What users read is written for them: no sentence in it reads like a note to a developer. */

const root = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The text a file shows: its string literals and JSX text, comments left out. */
function shownText(file: string): string[] {
  const code = readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/ .*$/gm, '');
  const literals = [...code.matchAll(/'([^'\n]*)'|`([^`]*)`|>([^<>{}]*[A-Za-z][^<>{}]*)</g)];
  return literals.map((m) => (m[1] ?? m[2] ?? m[3] ?? '').trim()).filter((text) => /\s/.test(text));
}

/** Words of the API's and the code's, not the user's; and a feature Shelf does not have. */
const DEVELOPER_WORDS = [/\bthe API\b(?! token)/i, /\bAPI (cannot|lists|returns)\b/i, /\bevaluations?\b/i, /\bendpoints?\b/i, /\bcursor\b(?!-)/i, /\bhighlights\b/i, /\bretried request\b/i];

describe('the words users read', () => {
  it('never read like a note to a developer', () => {
    const files = [...sources('components'), ...sources('entrypoints'), 'lib/client/user-text.ts'];
    expect(files).toEqual(expect.arrayContaining(['components/options/tags/TagDetails.tsx', 'components/options/trash/TrashSection.tsx']));
    const found = files.flatMap((file) => shownText(file).filter((text) => DEVELOPER_WORDS.some((w) => w.test(text))).map((text) => `${relative(root, join(root, file))}: ${text}`));
    expect(found).toEqual([]);
  });
});
