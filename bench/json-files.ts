import { writeExport } from '../server/interchange/write.ts';
import type { Library } from './library.ts';
import { netscapeFile } from './netscape-file.ts';

/** The import formats read whole (JSON), and Netscape HTML (read as a stream) to hold them beside. */
export const JSON_FORMATS = ['Shelf JSON', 'Chromium Bookmarks', 'Firefox JSON backup'] as const;
export type FileFormat = (typeof JSON_FORMATS)[number] | 'Netscape HTML';

/** Microseconds since 1601-01-01, Chromium's date_added. */
const chromiumTime = (ms: number): string => String((ms + 11_644_473_600_000) * 1000);

/** The library's first `count` bookmarks as a file of the format, in its folders (the bench library's collections), as that exporter writes it. */
export async function libraryFile(format: FileFormat, library: Library, count: number): Promise<string> {
  const bookmarks = library.bookmarks.slice(0, count);
  const part = { ...library, bookmarks };
  const pathOf = (index: number | null): string[] => {
    const c = index === null ? undefined : library.collections[index];
    return c === undefined ? [] : [...pathOf(c.parent), c.name];
  };
  if (format === 'Netscape HTML') return netscapeFile(part);
  if (format === 'Shelf JSON') {
    return writeExport('json', {
      collections: library.collections.map((c, i) => ({ path: pathOf(i), icon: '', color: '', notes: '' })),
      bookmarks: bookmarks.map((b) => ({ ...b, note: '', collectionPath: pathOf(b.collection) })),
      exportedAt: Date.now(),
    });
  }
  let id = 0;
  const chromium = (parent: number | null): unknown[] => [
    ...library.collections.flatMap((c, i) =>
      c.parent === parent ? [{ children: chromium(i), date_added: chromiumTime(0), guid: crypto.randomUUID(), id: String(++id), name: c.name, type: 'folder' }] : [],
    ),
    ...bookmarks
      .filter((b) => b.collection === parent)
      .map((b) => ({ date_added: chromiumTime(b.createdAt), guid: crypto.randomUUID(), id: String(++id), name: b.title, type: 'url', url: b.url })),
  ];
  const firefox = (parent: number | null): unknown[] => [
    ...library.collections.flatMap((c, i) =>
      c.parent === parent
        ? [{ guid: crypto.randomUUID(), title: c.name, index: i, dateAdded: 0, lastModified: 0, id: ++id, typeCode: 2, type: 'text/x-moz-place-container', children: firefox(i) }]
        : [],
    ),
    ...bookmarks
      .filter((b) => b.collection === parent)
      .map((b, index) => ({
        guid: crypto.randomUUID(), title: b.title, index, dateAdded: b.createdAt * 1000, lastModified: b.createdAt * 1000, id: ++id, typeCode: 1,
        tags: b.tags.join(','), type: 'text/x-moz-place', uri: b.url,
        annos: [{ name: 'bookmarkProperties/description', flags: 0, expires: 4, value: b.description }],
      })),
  ];
  if (format === 'Chromium Bookmarks') {
    const root = (name: string, children: unknown[]) => ({ children, date_added: chromiumTime(0), guid: crypto.randomUUID(), id: String(++id), name, type: 'folder' });
    return JSON.stringify({ checksum: '0'.repeat(32), roots: { bookmark_bar: root('Bookmarks bar', []), other: root('Other bookmarks', chromium(null)), synced: root('Mobile bookmarks', []) }, version: 1 }, null, 3);
  }
  const container = (root: string, title: string, children: unknown[]) => ({ guid: `${root}_____`, title, root, type: 'text/x-moz-place-container', children });
  return JSON.stringify(
    { guid: 'root________', title: '', type: 'text/x-moz-place-container', root: 'placesRoot', children: [container('bookmarksMenuFolder', 'menu', firefox(null))] },
  );
}

/** The most of the library's bookmarks whose file in the format stays within `maxBytes`, and that file. */
export async function largestFile(format: FileFormat, library: Library, maxBytes: number): Promise<{ count: number; file: Buffer }> {
  const whole = Buffer.byteLength(await libraryFile(format, library, library.bookmarks.length));
  let count = Math.min(library.bookmarks.length, Math.floor((library.bookmarks.length * maxBytes) / whole));
  for (;;) {
    const file = Buffer.from(await libraryFile(format, library, count));
    if (file.length <= maxBytes) return { count, file };
    count = Math.floor(count * 0.99);
  }
}
