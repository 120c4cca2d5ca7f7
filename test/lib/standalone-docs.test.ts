import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The project's documents stand on their own: none sends its reader to files outside the project. */

const root = new URL('../../', import.meta.url).pathname;
const SKIPPED = new Set(['node_modules', '.git', '.output', '.wxt', 'dist', 'data', 'coverage']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The lines of a file that match, as `file:line: text`. */
const matching = (file: string, pattern: RegExp): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (pattern.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : []));

describe('the project documents', () => {
  it('link to nothing outside the project (../shared)', () => {
    const files = markdownFiles(root);
    expect(files.map((f) => relative(root, f))).toEqual(expect.arrayContaining(['README.md', 'docs/api-decisions.md', 'docs/http-api.md']));
    expect(files.flatMap((f) => matching(f, /\.\.\/shared\b/))).toEqual([]);
  });

  it('docs/api-decisions.md states the API itself instead of pointing at an outside spec', () => {
    expect(matching(join(root, 'docs/api-decisions.md'), /\bthe spec\b|\bspec's\b|\(spec\b/i)).toEqual([]);
  });
});
