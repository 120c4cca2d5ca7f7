import { describe, expect, it } from 'vitest';
import { readArrayAhead } from '../../lib/client/read-ahead.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** `text`'s UTF-8 bytes as a body, cut into chunks of `size` bytes (a multi-byte character may be cut in two). */
function body(text: string, size: number): ReadableStream<Uint8Array> {
  const all = bytes(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= all.length) return controller.close();
      controller.enqueue(all.slice(at, at + size));
      at += size;
    },
  });
}

/** A body whose first `text` has come and whose rest comes only when `send` is called. */
function heldBody(text: string) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  controller.enqueue(bytes(text));
  return {
    stream,
    send(rest: string) {
      controller.enqueue(bytes(rest));
      controller.close();
    },
  };
}

// Strings holding what a scanner could take for structure: brackets, commas, quotes, escapes, a key's name.
const tricky = (i: number) => ({ normalizedUrl: `a.example/${i}?q=[1,2]&"x"`, note: 'a}b]c,\\"d\\', tags: ['é', '日本', '"groups"'], bookmarks: [{ id: `bkm_${i}`, nested: [[], {}, [1, [2]]] }] });
const answer = (groups: unknown[]) => ({ meta: { groups: ['not these'], data: { groups: [0] } }, 'da\\u0074a': 1, data: { total: null, groups, after: [9] }, end: true });

describe('readArrayAhead', () => {
  it('hands over the first elements of the array at the path, in chunks cut anywhere, and the whole body parsed', async () => {
    const groups = Array.from({ length: 12 }, (_, i) => tricky(i));
    const text = JSON.stringify(answer(groups), null, 1);
    for (const size of [1, 2, 3, 7, 64, text.length]) {
      const read = readArrayAhead(body(text, size), ['data', 'groups'], 8);
      expect(await read.head).toEqual({ items: groups.slice(0, 8), ended: false });
      expect(await read.whole).toEqual(answer(groups));
    }
  });

  it('says the array ended when it holds fewer elements than asked for, elements of any kind', async () => {
    const elements = [1, 'two', null, true, [3], { four: 4 }, -5.5e3];
    const read = readArrayAhead(body(JSON.stringify({ data: { groups: elements } }), 5), ['data', 'groups'], 8);
    expect(await read.head).toEqual({ items: elements, ended: true });
    expect(await readArrayAhead(body('{"data":{"groups":[ ]}}', 4), ['data', 'groups'], 8).head).toEqual({ items: [], ended: true });
  });

  it('hands over the head before the rest of the body has come', async () => {
    const groups = Array.from({ length: 10 }, (_, i) => tricky(i));
    const text = JSON.stringify({ data: { groups } });
    const cut = text.indexOf(JSON.stringify(groups[8]));
    const held = heldBody(text.slice(0, cut));
    const read = readArrayAhead(held.stream, ['data', 'groups'], 8);
    expect(await read.head).toEqual({ items: groups.slice(0, 8), ended: false });
    held.send(text.slice(cut));
    expect(await read.whole).toEqual({ data: { groups } });
  });

  it('has no head where the path leads to no array, and the whole body still parsed', async () => {
    for (const value of [{ data: { groups: 'none' } }, { data: [{ groups: [1] }] }, { groups: [1] }, [1, 2]]) {
      const read = readArrayAhead(body(JSON.stringify(value), 3), ['data', 'groups'], 1);
      expect(await read.head).toBeNull();
      expect(await read.whole).toEqual(value);
    }
  });

  it('refuses a body that is not JSON, or is cut short, whatever the scan found before', async () => {
    for (const text of ['{"data":{"groups":[1,2,3]}}}', '{"data":{"groups":[1,2,3', 'not json', '{"data":{"groups":[{"a":1},]}}', ',']) {
      const read = readArrayAhead(body(text, 2), ['data', 'groups'], 2);
      await read.head; // a head of well-formed first elements may come: the whole is what decides
      await expect(read.whole).rejects.toThrow(SyntaxError);
    }
  });

  it('passes on a body that breaks off', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('{"data":{"groups":[1,'));
        controller.error(new TypeError('connection reset'));
      },
    });
    const read = readArrayAhead(stream, ['data', 'groups'], 8);
    expect(await read.head).toBeNull();
    await expect(read.whole).rejects.toThrow('connection reset');
  });
});
