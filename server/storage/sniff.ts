export { type ImageType, SNIFF_BYTES, sniffImageType } from '../../lib/api/image-type.ts';

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
