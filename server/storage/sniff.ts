/** The cover types the spec accepts, named by their MIME type. */
export type ImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** How many leading bytes recognising a type needs (WebP's RIFF....WEBP is the longest). */
export const SNIFF_BYTES = 12;

const ascii = (text: string): number[] => [...text].map((ch) => ch.charCodeAt(0));

/** Magic numbers: each byte must match, null matches anything (WebP's RIFF length). */
const SIGNATURES: { type: ImageType; bytes: (number | null)[] }[] = [
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, ...ascii('PNG\r\n\x1a\n')] },
  { type: 'image/gif', bytes: ascii('GIF87a') },
  { type: 'image/gif', bytes: ascii('GIF89a') },
  { type: 'image/webp', bytes: [...ascii('RIFF'), null, null, null, null, ...ascii('WEBP')] },
];

/** The image type the first bytes of a file show, or null when they are none of the accepted types. */
export function sniffImageType(head: Uint8Array): ImageType | null {
  const match = SIGNATURES.find(({ bytes }) => bytes.every((b, i) => b === null || head[i] === b));
  return match?.type ?? null;
}

const ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

/**
 * The media type a Content-Type header names (lower case, parameters dropped, common
 * aliases folded), or null when the header makes no claim about the type: absent,
 * empty, or the generic application/octet-stream.
 */
export function declaredType(header: string | undefined): string | null {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '' || type === 'application/octet-stream') return null;
  return ALIASES[type] ?? type;
}
