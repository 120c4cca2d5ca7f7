/** The first elements of the array read ahead; `ended`: the array closed, so these are all of it. */
export interface ArrayHead {
  items: unknown[];
  ended: boolean;
}

export interface ReadAhead {
  /** The array's first `count` elements as soon as they have come; null when they could not be told apart before the body ended. */
  head: Promise<ArrayHead | null>;
  /** The whole body parsed once it has all come; rejects on a body that is not JSON or breaks off. */
  whole: Promise<unknown>;
}

interface Frame {
  array: boolean;
  /** How many of the path's keys lead to this container; -1 when it is off the path. */
  on: number;
  /** In an object: the key of the value being read, and whether the next string is a key. */
  key: string | null;
  expectKey: boolean;
}

/**
 * A JSON body read as it comes, handing over the first `count` elements of the array at `path` (object keys from
 * the top) once they have come, before the rest has even been received: a client shows a large answer's first
 * screen without waiting for all of it to arrive and be parsed. Only the text up to those elements is scanned;
 * the whole is parsed once, as JSON.parse would, and is what a malformed body is refused by.
 */
export function readArrayAhead(body: ReadableStream<Uint8Array>, path: readonly string[], count: number): ReadAhead {
  const scanner = new HeadScanner(path, count);
  let settleHead: (head: ArrayHead | null) => void = () => undefined;
  const head = new Promise<ArrayHead | null>((resolve) => (settleHead = resolve));
  const whole = (async () => {
    const decoder = new TextDecoder();
    const parts: string[] = [];
    const reader = body.getReader();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        const text = decoder.decode(chunk.value, { stream: true });
        parts.push(text);
        const found = scanner.done ? null : scanner.scan(text);
        if (found) settleHead(found);
      }
      parts.push(decoder.decode());
    } finally {
      settleHead(null); // a head found earlier stays as it was: a promise settles once
    }
    return JSON.parse(parts.join('')) as unknown;
  })();
  return { head, whole };
}

/** Follows the JSON text's nesting, chunk by chunk, up to the end of the wanted array's first elements. */
class HeadScanner {
  done = false;
  private text = '';
  private stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  private keyStart = -1;
  private elementStart = -1;
  private items: unknown[] = [];

  constructor(
    private path: readonly string[],
    private count: number,
  ) {}

  /** The head once `text` completes it; null while it is still to come (or, `done` set, when the text is not what was expected). */
  scan(chunk: string): ArrayHead | null {
    const from = this.text.length;
    this.text += chunk;
    try {
      for (let at = from; at < this.text.length; at++) {
        const found = this.step(this.text[at]!, at);
        if (found) {
          this.done = true;
          return found;
        }
      }
    } catch {
      // Malformed where it was scanned: the whole body's parse says so.
      this.done = true;
    }
    return null;
  }

  private step(ch: string, at: number): ArrayHead | null {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (ch === '\\') this.escaped = true;
      else if (ch === '"') this.closeString(at);
      return null;
    }
    if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') return null;
    const top = this.stack.at(-1);
    if (top !== undefined && this.isTarget(top) && this.elementStart < 0 && ch !== ']' && ch !== ',') this.elementStart = at;
    switch (ch) {
      case '"':
        this.inString = true;
        if (top !== undefined && !top.array && top.expectKey) this.keyStart = at;
        return null;
      case '{':
      case '[':
        this.stack.push({ array: ch === '[', on: this.childOn(top), key: null, expectKey: ch === '{' });
        return null;
      case ',':
        if (top === undefined) throw new SyntaxError('a comma outside any container');
        if (!top.array) top.expectKey = true;
        return this.isTarget(top) ? this.closeElement(at, false) : null;
      case '}':
      case ']':
        this.stack.pop();
        return top !== undefined && this.isTarget(top) ? this.closeElement(at, true) : null;
      default:
        return null;
    }
  }

  private closeString(at: number): void {
    this.inString = false;
    if (this.keyStart < 0) return;
    const top = this.stack.at(-1)!;
    top.key = JSON.parse(this.text.slice(this.keyStart, at + 1)) as string;
    top.expectKey = false;
    this.keyStart = -1;
  }

  /** An element of the wanted array ends at `at`; the head, once it has `count` of them or the array closed. */
  private closeElement(at: number, closed: boolean): ArrayHead | null {
    if (this.elementStart >= 0) this.items.push(JSON.parse(this.text.slice(this.elementStart, at)));
    this.elementStart = -1;
    return closed || this.items.length === this.count ? { items: this.items, ended: closed } : null;
  }

  private childOn(parent: Frame | undefined): number {
    if (parent === undefined) return 0;
    if (parent.array || parent.on < 0 || parent.on >= this.path.length) return -1;
    return parent.key === this.path[parent.on] ? parent.on + 1 : -1;
  }

  private isTarget(frame: Frame): boolean {
    return frame.array && frame.on === this.path.length;
  }
}
