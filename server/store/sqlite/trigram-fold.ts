/**
 * The case folding of FTS5's trigram tokenizer (SQLite's sqlite3Fts5UnicodeFold with diacritics
 * kept, and the tokenizer's reading of its input), for the text that search tests row by row
 * rather than through the index. Whatever this module says, FTS5 is the definition:
 * test/server/trigram-fold.test.ts compares the two over every code point, so an SQLite upgrade
 * that folds differently fails there rather than answering differently by plan.
 */

/**
 * sqlite3Fts5UnicodeFold's table (its aEntry, generated from Unicode's CaseFolding.txt), as
 * triples: the first code point of a range, flags, the range's length. A code point in the range
 * folds to (c + OFFSETS[flags >> 1]) & 0xffff, every one of them when flags is even, else every
 * second one from the first.
 */
const RANGES = [
  65, 14, 26, 181, 64, 1, 192, 14, 23, 216, 14, 7, 256, 1, 48, 306, 1, 6,
  313, 1, 16, 330, 1, 46, 376, 116, 1, 377, 1, 6, 383, 104, 1, 385, 50, 1,
  386, 1, 4, 390, 44, 1, 391, 0, 1, 393, 42, 2, 395, 0, 1, 398, 32, 1,
  399, 38, 1, 400, 40, 1, 401, 0, 1, 403, 42, 1, 404, 46, 1, 406, 52, 1,
  407, 48, 1, 408, 0, 1, 412, 52, 1, 413, 54, 1, 415, 56, 1, 416, 1, 6,
  422, 60, 1, 423, 0, 1, 425, 60, 1, 428, 0, 1, 430, 60, 1, 431, 0, 1,
  433, 58, 2, 435, 1, 4, 439, 62, 1, 440, 0, 1, 444, 0, 1, 452, 2, 1,
  453, 0, 1, 455, 2, 1, 456, 0, 1, 458, 2, 1, 459, 1, 18, 478, 1, 18,
  497, 2, 1, 498, 1, 4, 502, 122, 1, 503, 134, 1, 504, 1, 40, 544, 110, 1,
  546, 1, 18, 570, 70, 1, 571, 0, 1, 573, 108, 1, 574, 68, 1, 577, 0, 1,
  579, 106, 1, 580, 28, 1, 581, 30, 1, 582, 1, 10, 837, 36, 1, 880, 1, 4,
  886, 0, 1, 902, 18, 1, 904, 16, 3, 908, 26, 1, 910, 24, 2, 913, 14, 17,
  931, 14, 9, 962, 0, 1, 975, 4, 1, 976, 140, 1, 977, 142, 1, 981, 146, 1,
  982, 144, 1, 984, 1, 24, 1008, 136, 1, 1009, 138, 1, 1012, 130, 1, 1013, 128, 1,
  1015, 0, 1, 1017, 152, 1, 1018, 0, 1, 1021, 110, 3, 1024, 34, 16, 1040, 14, 32,
  1120, 1, 34, 1162, 1, 54, 1216, 6, 1, 1217, 1, 14, 1232, 1, 88, 1329, 22, 38,
  4256, 66, 38, 4295, 66, 1, 4301, 66, 1, 7680, 1, 150, 7835, 132, 1, 7838, 96, 1,
  7840, 1, 96, 7944, 150, 8, 7960, 150, 6, 7976, 150, 8, 7992, 150, 8, 8008, 150, 6,
  8025, 151, 8, 8040, 150, 8, 8072, 150, 8, 8088, 150, 8, 8104, 150, 8, 8120, 150, 2,
  8122, 126, 2, 8124, 148, 1, 8126, 100, 1, 8136, 124, 4, 8140, 148, 1, 8152, 150, 2,
  8154, 120, 2, 8168, 150, 2, 8170, 118, 2, 8172, 152, 1, 8184, 112, 2, 8186, 114, 2,
  8188, 148, 1, 8486, 98, 1, 8490, 92, 1, 8491, 94, 1, 8498, 12, 1, 8544, 8, 16,
  8579, 0, 1, 9398, 10, 26, 11264, 22, 47, 11360, 0, 1, 11362, 88, 1, 11363, 102, 1,
  11364, 90, 1, 11367, 1, 6, 11373, 84, 1, 11374, 86, 1, 11375, 80, 1, 11376, 82, 1,
  11378, 0, 1, 11381, 0, 1, 11390, 78, 2, 11392, 1, 100, 11499, 1, 4, 11506, 0, 1,
  42560, 1, 46, 42624, 1, 24, 42786, 1, 14, 42802, 1, 62, 42873, 1, 4, 42877, 76, 1,
  42878, 1, 10, 42891, 0, 1, 42893, 74, 1, 42896, 1, 4, 42912, 1, 10, 42922, 72, 1,
  65313, 14, 26,
];

/** The offsets RANGES' flags pick, as sqlite3Fts5UnicodeFold's aiOff. */
const OFFSETS = [
  1, 2, 8, 15, 16, 26, 28, 32, 37, 38, 40, 48, 63, 64, 69, 71,
  79, 80, 116, 202, 203, 205, 206, 207, 209, 210, 211, 213, 214, 217, 218, 219,
  775, 7264, 10792, 10795, 23228, 23256, 30204, 54721, 54753, 54754, 54756, 54787, 54793, 54809, 57153, 57274,
  57921, 58019, 58363, 61722, 65268, 65341, 65373, 65406, 65408, 65410, 65415, 65424, 65436, 65439, 65450, 65462,
  65472, 65476, 65478, 65480, 65482, 65488, 65506, 65511, 65514, 65521, 65527, 65528, 65529,
];

/** Deseret's capitals (U+10400 to U+10427) fold 40 code points up; no other one above U+FFFF folds. */
const DESERET = { first: 0x10400, end: 0x10428, offset: 40 };

/** What FTS5 reads for U+FFFE and U+FFFF, and SQLite stores for a lone surrogate. */
const REPLACEMENT = 0xfffd;

function foldCodePoint(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  if (c >= 0x10000) return c >= DESERET.first && c < DESERET.end ? c + DESERET.offset : c;
  if (c >= 0xfffe || (c >= 0xd800 && c <= 0xdfff)) return REPLACEMENT;
  // The last range starting at or below c.
  let lo = 0;
  let hi = RANGES.length / 3 - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c >= RANGES[mid * 3]!) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const first = RANGES[found * 3]!;
  const flags = RANGES[found * 3 + 1]!;
  const length = RANGES[found * 3 + 2]!;
  if (c >= first + length || (flags & 1 & (first ^ c)) !== 0) return c;
  return (c + OFFSETS[flags >> 1]!) & 0xffff;
}

/** Text that ASCII case folding alone settles, with no U+0000 (which FTS5 skips). */
const plainAscii = (text: string): boolean => /^\p{ASCII}*$/u.test(text) && !text.includes('\u0000');

/**
 * The text as the trigram tokenizer reads it: each code point folded, U+0000 left out. A query of
 * three characters or more matches a field exactly when its folding is a substring of the field's.
 */
export function trigramFold(text: string): string {
  if (plainAscii(text)) return text.toLowerCase();
  let folded = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c !== 0) folded += String.fromCodePoint(foldCodePoint(c));
  }
  return folded;
}

/**
 * The stored bytes of a text as the trigram tokenizer reads them (SQLite's READ_UTF8), folded.
 * SQLite hands JavaScript a text whose bytes are not UTF-8 with three U+FFFD for each lone
 * surrogate that better-sqlite3 wrote, where FTS5 reads one: only the bytes tell which.
 */
export function trigramFoldBytes(bytes: Uint8Array): string {
  let folded = '';
  for (let i = 0; i < bytes.length; ) {
    let c = bytes[i++]!;
    if (c >= 0xc0) {
      c = c < 0xe0 ? c - 0xc0 : c < 0xf0 ? c - 0xe0 : c < 0xf8 ? c - 0xf0 : c < 0xfc ? c - 0xf8 : c < 0xfe ? c - 0xfc : 0;
      while (i < bytes.length && (bytes[i]! & 0xc0) === 0x80) c = c * 64 + (bytes[i++]! & 0x3f);
      // Above U+10FFFF only from bytes no JavaScript string writes; String.fromCodePoint refuses them.
      if (c < 0x80 || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff || c > 0x10ffff) c = REPLACEMENT;
    }
    if (c !== 0) folded += String.fromCodePoint(foldCodePoint(c));
  }
  return folded;
}
