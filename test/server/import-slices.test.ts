import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { importDateRange } from '../../server/interchange/dates.ts';
import type { InterchangeBookmark } from '../../server/interchange/types.ts';
import { TEXT_SLICE, type ImportTarget, openImport, slices } from '../../server/jobs/import-source.ts';
import { netscapeFile } from './jobs-fixtures.ts';

async function* fromChunks(chunks: readonly string[]): AsyncGenerator<string> {
  yield* chunks;
}

async function all(text: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const slice of text) out.push(slice);
  return out;
}

/**
 * A stored file arrives in pieces of 256 KiB (PostgreSQL's rows) or more: a reader given one in
 * one go held the event loop for up to a second, long enough on a busy machine for the job's
 * lease to lapse while its instance was alive (the hosted faults test saw it handed over mid-run).
 */
describe('an import reads its file a slice of text at a time, each on its own turn of the event loop', () => {
  it('a file stored as one piece of 500 kB is told to the run over many turns, every bookmark once and in order', async () => {
    const content = netscapeFile(1500);
    expect(content.length).toBeGreaterThan(20 * TEXT_SLICE);
    const file = { size: Buffer.byteLength(content), read: async () => Readable.from([Buffer.from(content)]) };
    const source = await openImport(file, importDateRange(Date.now()));

    // Counts the turns of the event loop while the file is read: a turn ends only when the reader gives way.
    let turns = 0;
    let reading = true;
    const ticking = (async () => {
      while (reading) {
        turns++;
        await nextTurn();
      }
    })();
    const told: { url: string; turn: number }[] = [];
    const target: ImportTarget = {
      collection: () => undefined,
      bookmark: (b: InterchangeBookmark) => void told.push({ url: b.url, turn: turns }),
      skipped: () => undefined,
      drain: async () => undefined,
    };
    await source.readInto(target);
    reading = false;
    await ticking;

    expect(told.map((t) => t.url)).toEqual(content.match(/HREF="[^"]+"/g)!.map((href) => href.slice(6, -1)));
    // About one turn per slice: never the whole piece at once.
    const perTurn = new Map<number, number>();
    for (const { turn } of told) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    expect(perTurn.size).toBeGreaterThanOrEqual(Math.floor(content.length / TEXT_SLICE) - 1);
    expect(Math.max(...perTurn.values())).toBeLessThan(100);
  });

  it('slices are at most TEXT_SLICE characters, never split a character written as a surrogate pair, and join to the text', async () => {
    // An emoji (two UTF-16 units) straddles every slice boundary.
    const chunk = `${'a'.repeat(TEXT_SLICE - 1)}😀`.repeat(3) + 'tail';
    const small = 'small piece';
    const out = await all(slices(fromChunks([chunk, small])));
    expect(out.join('')).toBe(chunk + small);
    expect(out.at(-1)).toBe(small);
    for (const slice of out) {
      expect(slice.length).toBeLessThanOrEqual(TEXT_SLICE + 1);
      expect(/[\uD800-\uDBFF]$/.test(slice)).toBe(false);
      expect(/^[\uDC00-\uDFFF]/.test(slice)).toBe(false);
    }
  });
});
