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
  if (input[0] === 0xff && input[1] === 0xfe) return new TextDecoder('utf-16le').decode(input.subarray(2));
  if (input[0] === 0xfe && input[1] === 0xff) return new TextDecoder('utf-16be').decode(input.subarray(2));
  try {
    return stripBom(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input));
  } catch {
    return decodeWindows1252(input);
  }
}
