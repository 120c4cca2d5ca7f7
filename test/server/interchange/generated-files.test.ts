import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../server/interchange/detect.ts';
import { GENERATED_FILES, readImport } from '../../support/import-files.ts';

/** Every format's quirks, in files the project writes itself: these run in any clone. */
describe.each(GENERATED_FILES.map((make) => [make().name, make] as const))('%s', (_name, make) => {
  const file = make();
  const parsed = readImport(file.content);

  it('is recognised', () => {
    expect(detectFormat(typeof file.content === 'string' ? file.content : file.content.toString('utf8'))).toBe(file.format);
    expect(parsed.format).toBe(file.format);
  });

  it('gives every bookmark with its title, folder, tags and date', () => {
    expect(parsed.bookmarks.map((b) => ({ url: b.url, title: b.title, path: b.collectionPath, tags: [...b.tags].sort(), createdAt: b.createdAt }))).toEqual(
      file.bookmarks,
    );
  });

  it('gives every folder, empty ones included, parents first', () => {
    expect(parsed.collections.map((c) => c.path)).toEqual(file.collections);
  });

  it('skips what is not a web bookmark, saying why', () => {
    expect(parsed.skipped.map((s) => s.reason)).toEqual(file.skipped.map((reason) => expect.stringMatching(reason)));
  });
});
