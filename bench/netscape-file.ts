import type { Library, LibraryBookmark } from './library.ts';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const seconds = (ms: number): number => Math.floor(ms / 1000);

/**
 * The library as a browser would export it: the Netscape bookmark file, with the
 * collections as nested folders (<H3> + <DL>), Unsorted bookmarks at the top level,
 * ADD_DATE in seconds, TAGS comma-separated and each description in a <DD>.
 */
export function netscapeFile(library: Library): string {
  const inFolder = new Map<number | null, LibraryBookmark[]>();
  for (const b of library.bookmarks) {
    const list = inFolder.get(b.collection) ?? [];
    list.push(b);
    inFolder.set(b.collection, list);
  }
  const firstSeen = (folder: number) => inFolder.get(folder)?.[0]?.createdAt ?? library.bookmarks[0]!.createdAt;

  const out: string[] = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<!-- This is an automatically generated file. It will be read and overwritten. DO NOT EDIT! -->',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    '<TITLE>Bookmarks</TITLE>',
    '<H1>Bookmarks</H1>',
    '<DL><p>',
  ];
  const writeFolder = (parent: number | null, indent: string) => {
    library.collections.forEach((c, i) => {
      if (c.parent !== parent) return;
      out.push(`${indent}<DT><H3 ADD_DATE="${seconds(firstSeen(i))}">${escapeHtml(c.name)}</H3>`, `${indent}<DL><p>`);
      writeFolder(i, `${indent}    `);
      out.push(`${indent}</DL><p>`);
    });
    for (const b of inFolder.get(parent) ?? []) {
      const tags = b.tags.length > 0 ? ` TAGS="${escapeHtml(b.tags.join(','))}"` : '';
      out.push(
        `${indent}<DT><A HREF="${escapeHtml(b.url)}" ADD_DATE="${seconds(b.createdAt)}"${tags}>${escapeHtml(b.title)}</A>`,
        `${indent}<DD>${escapeHtml(b.description)}`,
      );
    }
  };
  writeFolder(null, '    ');
  out.push('</DL><p>', '');
  return out.join('\n');
}
