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

/**
 * The image type the first bytes of a file show, or null when they are none of
 * the accepted types. Shared: the server judges uploads with it, the extension
 * decides with it whether an image must be converted before it is sent.
 */
export function sniffImageType(head: Uint8Array): ImageType | null {
  const match = SIGNATURES.find(({ bytes }) => bytes.every((b, i) => b === null || head[i] === b));
  return match?.type ?? null;
}
