import { Tokenizer } from 'htmlparser2';

/** What a bookmark file reader hears of an HTML file: tags (names lower-cased, attributes decoded) and text. */
export interface HtmlEvents {
  /** `index`: where the tag starts in the text. */
  open(name: string, attributes: Record<string, string>, index: number): void;
  close(name: string): void;
  text(data: string): void;
}

/**
 * The tags and text of an HTML file in order, from htmlparser2's tokenizer (entities decoded,
 * the contents of title, script and style kept as text), with no element tree and so no
 * implied closing. Bookmark files are read from their tags alone, since real ones leave
 * <DT>, <p> and <A> open; and htmlparser2's Parser keeps its open elements in an array it
 * shifts at every tag, which made a file of deeply nested folders cost time growing with the
 * square of the depth (a 2.3 MB file, 27 s of a blocked server).
 */
export function readHtmlEvents(text: string, events: HtmlEvents): void {
  let tag = '';
  let tagStart = 0;
  let attributes: Record<string, string> = Object.create(null) as Record<string, string>;
  let attribute = '';
  let value = '';
  const openTag = (): void => events.open(tag, attributes, tagStart);
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tag = text.slice(start, end).toLowerCase();
        tagStart = start - 1;
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
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onprocessinginstruction: ignore,
      onend: ignore,
    },
  );
  tokenizer.write(text);
  tokenizer.end();
}

const ignore = (): void => undefined;
