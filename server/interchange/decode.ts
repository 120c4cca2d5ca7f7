// Node's TextDecoder('windows-1252') decodes 0x80-0x9F as C1 controls (i.e. it is really
// ISO-8859-1), which turns the curly quotes and dashes of old Windows exports into
// invisible garbage, so the 32 bytes where the two encodings differ are mapped here.
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes)
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? c.charCodeAt(0)));
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * UTF-8 when the bytes are valid UTF-8 (which legacy 8-bit text almost never is by
 * accident), otherwise windows-1252, the superset of Latin-1 that old Windows and
 * browser exports used. UTF-16 is only trusted with its BOM.
 */
export function decodeInput(input: Buffer | string): string {
  if (typeof input === 'string') return stripBom(input);
  const utf16 = utf16Of(input);
  if (utf16 !== null) return new TextDecoder(utf16).decode(input.subarray(2));
  try {
    return stripBom(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input));
  } catch {
    return decodeWindows1252(input);
  }
}

export type TextEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/** UTF-16 by its byte order mark, or null. */
function utf16Of(start: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (start[0] === 0xff && start[1] === 0xfe) return 'utf-16le';
  return start[0] === 0xfe && start[1] === 0xff ? 'utf-16be' : null;
}

/** The encoding decodeInput would choose for these bytes, read once and not kept. */
export async function sniffEncoding(bytes: AsyncIterable<Uint8Array>): Promise<TextEncoding> {
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  // The first two bytes, and the chunks that hold them, are looked at before anything else.
  const start: number[] = [];
  const held: Uint8Array[] = [];
  try {
    for await (const chunk of bytes) {
      held.push(chunk);
      if (start.length < 2) {
        start.push(...chunk.subarray(0, 2 - start.length));
        const utf16 = utf16Of(Uint8Array.from(start));
        if (utf16 !== null) return utf16;
        if (start.length < 2) continue;
      }
      for (const bytes of held.splice(0)) utf8.decode(bytes, { stream: true });
    }
    for (const bytes of held) utf8.decode(bytes, { stream: true });
    utf8.decode();
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** decodeInput a chunk at a time, in the encoding sniffEncoding found. */
export async function* decodeChunks(bytes: AsyncIterable<Uint8Array>, encoding: TextEncoding): AsyncGenerator<string> {
  if (encoding === 'windows-1252') {
    for await (const chunk of bytes) yield decodeWindows1252(chunk);
    return;
  }
  const decoder = encoding === 'utf-8' ? new TextDecoder('utf-8', { ignoreBOM: true }) : new TextDecoder(encoding);
  // A UTF-16 file's own byte order mark is not text; a UTF-8 file's is taken off the text.
  let skipBytes = encoding === 'utf-8' ? 0 : 2;
  let start = encoding === 'utf-8';
  for await (const chunk of bytes) {
    let text = decoder.decode(chunk.subarray(Math.min(skipBytes, chunk.length)), { stream: true });
    skipBytes = Math.max(0, skipBytes - chunk.length);
    if (start && text !== '') {
      text = stripBom(text);
      start = false;
    }
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield start ? stripBom(rest) : rest;
}
