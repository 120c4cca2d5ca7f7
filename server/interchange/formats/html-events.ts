import { Tokenizer } from 'htmlparser2';
import type { TextReader } from '../events.ts';

/** What a bookmark file reader hears of an HTML file: tags (names lower-cased, attributes decoded) and text. */
export interface HtmlEvents {
  /** `line`: the 1-based line where the tag starts. */
  open(name: string, attributes: Record<string, string>, line: number): void;
  close(name: string): void;
  text(data: string): void;
}

/**
 * The tags and text of an HTML file in order, fed chunk by chunk, from htmlparser2's tokenizer
 * (entities decoded, the contents of title, script and style kept as text), with no element
 * tree and so no implied closing. Bookmark files are read from their tags alone, since real
 * ones leave <DT>, <p> and <A> open; and htmlparser2's Parser keeps its open elements in an
 * array it shifts at every tag, which made a file of deeply nested folders cost time growing
 * with the square of the depth (a 2.3 MB file, 27 s of a blocked server).
 */
export function htmlEventReader(events: HtmlEvents): TextReader {
  const text = new ChunkedText();
  let tag = '';
  let tagLine = 1;
  let attributes: Record<string, string> = Object.create(null) as Record<string, string>;
  let attribute = '';
  let value = '';
  const openTag = (): void => events.open(tag, attributes, tagLine);
  const skip = (_start: number, end: number): void => text.forget(end);
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tagLine = text.lineAt(start);
        tag = text.slice(start, end).toLowerCase();
        attributes = Object.create(null) as Record<string, string>;
      },
      onattribname(start, end) {
        attribute = text.slice(start, end).toLowerCase();
        value = '';
      },
      onattribdata(start, end) {
        value += text.slice(start, end);
      },
      onattribentity(codepoint) {
        value += String.fromCodePoint(codepoint);
      },
      onattribend() {
        // The first of two same-named attributes counts, as in browsers.
        if (!(attribute in attributes)) attributes[attribute] = value;
      },
      onopentagend: openTag,
      onselfclosingtag: openTag,
      onclosetag(start, end) {
        events.close(text.slice(start, end).toLowerCase());
      },
      ontext(start, end) {
        events.text(text.slice(start, end));
      },
      ontextentity(codepoint) {
        events.text(String.fromCodePoint(codepoint));
      },
      oncdata: skip,
      oncomment: skip,
      ondeclaration: skip,
      onprocessinginstruction: skip,
      onend: () => undefined,
    },
  );
  return {
    write(chunk) {
      text.push(chunk);
      tokenizer.write(chunk);
    },
    end() {
      tokenizer.end();
    },
  };
}

/**
 * The file's text as the tokenizer reports it, by index from the start of the file, holding
 * only the chunks from the earliest one an event in progress still needs: the tokenizer
 * reports in file order, so what lies before a reported start is never asked for again.
 */
class ChunkedText {
  private readonly chunks: string[] = [];
  /** Index of the first held chunk's first character. */
  private offset = 0;
  /** Newlines before `counted` make `line` - 1. */
  private counted = 0;
  private line = 1;

  push(chunk: string): void {
    this.chunks.push(chunk);
  }

  slice(start: number, end: number): string {
    if (start === end) return '';
    this.forget(start);
    let out = '';
    let at = this.offset;
    for (const chunk of this.chunks) {
      if (at >= end) break;
      out += chunk.slice(Math.max(0, start - at), Math.max(0, end - at));
      at += chunk.length;
    }
    return out;
  }

  /** The line of the character at `index`, which is at or after every index asked for before. */
  lineAt(index: number): number {
    let at = this.offset;
    for (const chunk of this.chunks) {
      if (at >= index) break;
      this.line += newlines(chunk, Math.max(0, this.counted - at), Math.min(chunk.length, index - at));
      at += chunk.length;
    }
    this.counted = Math.max(this.counted, index);
    return this.line;
  }

  /** Lets go of the chunks wholly before `index`, counting their lines first. */
  forget(index: number): void {
    for (let first = this.chunks[0]; first !== undefined && index - this.offset >= first.length; first = this.chunks[0]) {
      this.lineAt(this.offset + first.length);
      this.offset += first.length;
      this.chunks.shift();
    }
  }
}

function newlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
