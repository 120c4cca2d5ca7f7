import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { trigramFold, trigramFoldBytes } from '../../server/store/sqlite/trigram-fold.ts';

/**
 * trigramFold must fold as FTS5's trigram tokenizer does, code point by code point, or a search
 * would answer differently when it tests rows one by one than when it reads the index. FTS5
 * shows its folding in its index: each trigram term starts with the folding of the code point
 * at its position.
 */
const db = new Database(':memory:');
afterAll(() => db.close());
db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'trigram'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');");
const insert = db.prepare<[string]>('INSERT INTO t (x) VALUES (?)');
const terms = db.prepare<[], [string, number]>('SELECT term, offset FROM v ORDER BY offset').raw();

/** FTS5's folding of each code point, one index row at a time. */
function ftsFolds(codePoints: number[]): number[] {
  db.exec('DELETE FROM t');
  // Two plain letters after the last code point make it the start of a trigram too.
  insert.run(`${String.fromCodePoint(...codePoints)}zz`);
  const folds: number[] = [];
  for (const [term, offset] of terms.all()) folds[offset] = term.codePointAt(0)!;
  return folds;
}

const BLOCK = 0x4000;
const LAST = 0x10ffff;
const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

describe('trigramFold', () => {
  it('folds every code point as FTS5 trigram tokenizer does', () => {
    const differing: string[] = [];
    for (let start = 1; start <= LAST; start += BLOCK) {
      const codePoints: number[] = [];
      for (let c = start; c < Math.min(start + BLOCK, LAST + 1); c++) if (!isSurrogate(c)) codePoints.push(c);
      const expected = ftsFolds(codePoints);
      codePoints.forEach((c, i) => {
        const folded = trigramFold(String.fromCodePoint(c)).codePointAt(0);
        if (folded !== expected[i]) differing.push(`U+${c.toString(16)}: FTS5 ${expected[i]?.toString(16)}, trigramFold ${folded?.toString(16)}`);
      });
    }
    expect(differing).toEqual([]);
  }, 120_000);

  it('leaves out U+0000, as FTS5 reads past it', () => {
    expect(trigramFold('A\u0000BC')).toBe('abc');
    expect(ftsFolds([0x41, 0, 0x42, 0x43]).slice(0, 2)).toEqual([0x61, 0x62]);
    expect(trigramFold('Ж\u0000Ф')).toBe('жф');
  });

  it('reads a lone surrogate as FTS5 does, in the query and in the stored bytes', () => {
    insert.run('x\ud800yz');
    const row = db.prepare<[], { text: string; bytes: Buffer; rowid: number }>("SELECT x AS text, CAST(x AS BLOB) AS bytes, rowid FROM t WHERE x LIKE 'x%'").get()!;
    // FTS5 read one U+FFFD where the text comes back to JavaScript with three.
    expect(db.prepare("SELECT term FROM v WHERE doc = ? ORDER BY offset").pluck().all(row.rowid)).toEqual(['x\ufffdy', '\ufffdyz']);
    expect(row.text).toBe('x\ufffd\ufffd\ufffdyz');
    expect(trigramFoldBytes(row.bytes)).toBe('x\ufffdyz');
    // A query holding a lone surrogate matches as its folding does.
    expect(trigramFold('X\ud800Y')).toBe('x\ufffdy');
    expect(db.prepare('SELECT rowid FROM t WHERE t MATCH ?').pluck().all('"X\ud800Y"')).toEqual([row.rowid]);
  });

  it('reads valid UTF-8 bytes as their text', () => {
    for (const text of ['Ελληνική ΓΛΩΣΣΑ', 'plain ASCII', '東京タワー𐐀𝔸', 'a\u0000b', '\ufffd\ufffe\uffff']) {
      expect(trigramFoldBytes(Buffer.from(text))).toBe(trigramFold(text));
    }
  });

  it('folds whole texts of mixed scripts, ASCII alone the quick way', () => {
    expect(trigramFold('Ελληνική ΓΛΩΣΣΑ Σ ς')).toBe('ελληνική γλωσσα σ σ');
    // Unlike toLowerCase: no final sigma, and İ (U+0130) left as it is.
    expect(trigramFold('Crème BRÛLÉE İ')).toBe('crème brûlée İ');
    expect(trigramFold('HELLO, World')).toBe('hello, world');
  });
});

