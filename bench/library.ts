import type { BookmarkType } from '../lib/api/bookmarks.ts';
import { DAY } from '../server/clock.ts';

/**
 * A synthetic but realistic library, the same every run (seeded PRNG), so that
 * numbers from two runs compare. The SQL seed and the Netscape import file are
 * both written from it.
 */
export interface LibraryBookmark {
  url: string;
  title: string;
  description: string;
  tags: string[];
  /** Index into `collections`, or null for Unsorted. */
  collection: number | null;
  isFavorite: boolean;
  type: BookmarkType;
  clickCount: number;
  createdAt: number;
}

export interface LibraryCollection {
  name: string;
  /** Index of the parent collection, or null for a root. */
  parent: number | null;
}

export interface Library {
  collections: LibraryCollection[];
  tags: string[];
  /** Oldest first, as a library grows. */
  bookmarks: LibraryBookmark[];
}

/** Clicks at or above this are rare (about 1 %): a smart folder on them scans far and matches little. */
export const RARE_CLICKS = 1000;

const WORDS = (
  'signal harbor quiet amber vector lattice orbit canyon meadow copper falcon river ember prism ' +
  'cedar pixel summit tundra willow beacon cobalt delta fable glacier horizon ivory jasper kernel ' +
  'lantern marble nebula onyx pepper quartz raven saffron timber umbra velvet walnut zephyr anchor ' +
  'bramble cipher dune echo fern granite hollow inlet juniper kestrel lumen mosaic nimbus oasis ' +
  'parcel quill ridge spruce thistle upland vale wharf yarrow zenith atlas basalt cinder drift'
).split(' ');

const TOPICS = (
  'javascript typescript rust golang python sql postgres sqlite css html design ux testing devops ' +
  'kubernetes docker linux security privacy cryptography networking http browsers performance ' +
  'databases compilers algorithms math statistics ml ai llm writing productivity career management ' +
  'startups finance economics history science physics biology climate energy cooking travel music ' +
  'film books podcasts photography gardening health fitness running cycling chess games'
).split(' ');

const TLDS = ['com', 'org', 'io', 'dev', 'net', 'co.uk', 'de', 'blog'];
const TYPES: [BookmarkType, number][] = [
  ['link', 0.62],
  ['article', 0.25],
  ['video', 0.07],
  ['image', 0.04],
  ['document', 0.02],
];

const YEAR = 365 * DAY;

/** mulberry32: small, fast, good enough to spread synthetic data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateLibrary(count: number, now: number, seed = 1): Library {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS));
  const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

  const domains = uniqueNames(200, () => {
    const host = `${pick(WORDS)}${pick(WORDS)}.${pick(TLDS)}`;
    return random() < 0.15 ? `${pick(['blog', 'docs', 'news', 'www'])}.${host}` : host;
  });
  const tags = generateTags(random, pick);
  const collections = generateCollections(words, capitalised);

  const bookmarks: LibraryBookmark[] = [];
  const span = 3 * YEAR;
  for (let i = 0; i < count; i++) {
    // A few domains hold most bookmarks, as in real libraries.
    const domain = domains[Math.floor(domains.length * random() ** 2)]!;
    const titleWords = words(3 + int(6));
    const title = `${capitalised(titleWords.join(' '))}${random() < 0.3 ? `: ${pick(TOPICS)}` : ''}`;
    const query = random() < 0.1 ? `?id=${int(100_000)}` : '';
    bookmarks.push({
      url: `https://${domain}/${pick(TOPICS)}/${titleWords.join('-')}-${i}${query}`,
      title,
      description: sentenceOf(words, capitalised, 140 + int(30)),
      tags: uniqueNames(int(5), () => pick(tags)),
      collection: random() < 0.4 ? int(collections.length) : null,
      isFavorite: random() < 0.1,
      type: weighted(random(), TYPES),
      clickCount: i % 97 === 0 ? RARE_CLICKS + int(500) : random() < 0.6 ? 0 : 1 + int(60),
      createdAt: now - span + Math.floor((span * i) / count) + int(DAY / 2),
    });
  }
  return { collections, tags, bookmarks };
}

/** About 300 tags: flat topics and word pairs, plus parent/child hierarchies. */
function generateTags(random: () => number, pick: <T>(items: readonly T[]) => T): string[] {
  const flat = uniqueNames(210, () => (random() < 0.3 ? pick(TOPICS) : `${pick(TOPICS)}-${pick(WORDS)}`));
  const parents = uniqueNames(24, () => pick(['read', 'work', 'ref', 'project', 'learn', 'area']) + `-${pick(WORDS)}`);
  const children = parents.flatMap((parent) => uniqueNames(3, () => `${parent}/${pick(TOPICS)}`));
  return [...flat, ...children, ...parents.slice(0, 6).map((p) => `${p}/deep/${pick(WORDS)}`)];
}

/** 30 collections: 10 roots with 2 children each. */
function generateCollections(words: (n: number) => string[], capitalised: (s: string) => string): LibraryCollection[] {
  const roots = Array.from({ length: 10 }, (): LibraryCollection => ({ name: capitalised(words(2).join(' ')), parent: null }));
  const children = Array.from({ length: 20 }, (_, i): LibraryCollection => ({ name: capitalised(words(2).join(' ')), parent: i % 10 }));
  return [...roots, ...children];
}

function sentenceOf(words: (n: number) => string[], capitalised: (s: string) => string, length: number): string {
  let text = '';
  while (text.length < length) text += (text ? ' ' : '') + words(1)[0];
  return `${capitalised(text.slice(0, length).trimEnd())}.`;
}

function uniqueNames(n: number, make: () => string): string[] {
  const names = new Set<string>();
  for (let tries = 0; names.size < n && tries < n * 50; tries++) names.add(make());
  return [...names];
}

function weighted<T>(r: number, options: readonly [T, number][]): T {
  let acc = 0;
  for (const [value, weight] of options) {
    acc += weight;
    if (r < acc) return value;
  }
  return options[options.length - 1]![0];
}
