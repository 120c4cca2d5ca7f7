import type { InterchangeBookmark, InterchangeCollection, InterchangeLibrary } from '../../server/interchange/types.ts';

const TYPES = ['link', 'article', 'image', 'video', 'document'] as const;

/** Folders in tree (depth-first) order, the order every writer emits, with names and notes that every format must escape. */
export const SAMPLE_COLLECTIONS: InterchangeCollection[] = [
  { path: ['Work'], icon: '💼', color: 'blue', notes: 'Job stuff\nsecond line' },
  { path: ['Work', 'Projects / 2024'], icon: '', color: '', notes: '' },
  { path: ['Work', 'Projects / 2024', 'Q1, "draft" <beta> & co'], icon: 'folder', color: '#ff0000', notes: '  deep & "quoted"\r\n' },
  { path: ['Work', 'Empty'], icon: '📁', color: 'red', notes: '' },
  { path: ['Личное 日本 🎌'], icon: '', color: 'green', notes: 'ünïcödé' },
  { path: ['Back\\slash'], icon: '', color: '', notes: '' },
  { path: ['Back\\slash', "It's = fine"], icon: '', color: '', notes: '=SUM(A1)' },
  { path: ['Back\\slash', "It's = fine", 'Empty leaf'], icon: '', color: '', notes: '' },
];

/**
 * A library of `count` bookmarks, the same for the same count, spread over every folder,
 * Unsorted and one folder only bookmarks name, with the texts, tags, types and dates
 * (missing, whole seconds, milliseconds) that the writers treat differently. Large counts
 * make the writers cross their internal chunk and page boundaries.
 */
export function generatedLibrary(count: number): InterchangeLibrary {
  const folders: string[][] = [...SAMPLE_COLLECTIONS.map((c) => c.path), [], ['Only', 'in bookmarks']];
  const bookmarks: InterchangeBookmark[] = [];
  for (let i = 0; i < count; i += 1) {
    bookmarks.push({
      url: i % 97 === 0 ? `https://example.com/q?i=${i}&x="1"` : `https://site${i % 13}.example/page/${i}`,
      title: i % 11 === 0 ? `=HYPERLINK("${i}")` : i % 7 === 0 ? `  Tom & Jerry <b>${i}</b>  ` : `Title ${i} 日本`,
      description: i % 5 === 0 ? `Line one\nline two ${i}` : '',
      note: i % 9 === 0 ? `note, "quoted" ${i}\r\n` : '',
      type: TYPES[i % TYPES.length] ?? 'link',
      isFavorite: i % 4 === 0,
      tags: i % 3 === 0 ? [] : i % 3 === 1 ? [`tag${i % 17}`, 'dev/js'] : ['rock, paper', `-minus${i % 5}`],
      collectionPath: folders[i % folders.length] ?? [],
      createdAt: i % 10 === 0 ? null : i % 2 === 0 ? Date.UTC(2020, 0, 1) + i * 1000 : Date.UTC(2021, 5, 1) + i * 1234,
    });
  }
  return { collections: SAMPLE_COLLECTIONS, bookmarks, exportedAt: Date.UTC(2025, 0, 2, 3, 4, 5) };
}
