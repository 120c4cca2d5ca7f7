import type { ImageType } from '../api/image-type.ts';

/**
 * An automatic cover made card-sized: the 500 MB quota is shared with every upload, so each cover aims at about
 * 25 KB. Drawn with createImageBitmap and OffscreenCanvas, which Chrome's service worker and Firefox's background
 * page both have (neither decodes SVG there: such an image is no candidate).
 */

/** A card's cover is at most this wide; a wider image is scaled down. */
export const CARD_WIDTH = 480;
/** Narrower again, in turn, for an image so busy (noise, fine print) that no quality fits the target at 480 px. */
const SMALLER_WIDTHS = [360, 240] as const;
/** A taller image is cut at the top's square: a card shows the top of a page. */
const MAX_HEIGHT_RATIO = 1;
/** Narrower than this is an icon or a logo, not a preview of the page. */
export const MIN_PREVIEW_WIDTH = 120;
export const COVER_TARGET_BYTES = 25 * 1024;
/** Tried in turn until the cover fits its target. */
export const QUALITIES = [0.8, 0.7, 0.6, 0.5, 0.4, 0.3] as const;

export interface CardCover {
  bytes: Uint8Array<ArrayBuffer>;
  type: ImageType;
}

/** The size of a card's cover for an image of width × height: scaled to maxWidth at most, cut to a square at most. */
export function cardSize(width: number, height: number, maxWidth: number = CARD_WIDTH): { width: number; height: number; sourceHeight: number } {
  const scale = Math.min(1, maxWidth / width);
  const sourceHeight = Math.min(height, Math.round(width * MAX_HEIGHT_RATIO));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(sourceHeight * scale)), sourceHeight };
}

/** Encodes at each quality in turn, best first, until one fits `target`; the smallest when none does. */
export async function withinTarget(encode: (quality: number) => Promise<Blob>, target = COVER_TARGET_BYTES): Promise<Blob> {
  let smallest: Blob | null = null;
  for (const quality of QUALITIES) {
    const blob = await encode(quality);
    if (blob.size <= target) return blob;
    if (!smallest || blob.size < smallest.size) smallest = blob;
  }
  return smallest!;
}

/**
 * The image as a card's cover: WebP (JPEG where this browser encodes no WebP), scaled and compressed to the
 * target, narrower when no quality fits at full width. Rejects an image this browser cannot decode, and one too
 * narrow to be a page's preview.
 */
export async function cardCover(image: Blob, target = COVER_TARGET_BYTES): Promise<CardCover> {
  const bitmap = await createImageBitmap(image);
  try {
    if (bitmap.width < MIN_PREVIEW_WIDTH) throw new Error(`the image is ${bitmap.width} px wide: an icon, not a preview`);
    let type: CardCover['type'] | null = null;
    let smallest: Blob | null = null;
    for (const maxWidth of [CARD_WIDTH, ...SMALLER_WIDTHS]) {
      // No narrower than the image itself: that size was tried already.
      if (maxWidth < CARD_WIDTH && bitmap.width <= maxWidth) continue;
      const canvas = drawn(bitmap, cardSize(bitmap.width, bitmap.height, maxWidth));
      // A browser that encodes no WebP answers PNG: large, so JPEG then.
      const first = await canvas.convertToBlob({ type: type ?? 'image/webp', quality: QUALITIES[0] });
      type ??= first.type === 'image/webp' ? 'image/webp' : 'image/jpeg';
      const encoding = type;
      const blob = await withinTarget((quality) => (quality === QUALITIES[0] && first.type === encoding ? Promise.resolve(first) : canvas.convertToBlob({ type: encoding, quality })), target);
      if (!smallest || blob.size < smallest.size) smallest = blob;
      if (blob.size <= target) break;
    }
    return { bytes: new Uint8Array(await smallest!.arrayBuffer()), type: type! };
  } finally {
    bitmap.close();
  }
}

function drawn(bitmap: ImageBitmap, size: ReturnType<typeof cardSize>): OffscreenCanvas {
  const canvas = new OffscreenCanvas(size.width, size.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser cannot draw here');
  context.drawImage(bitmap, 0, 0, bitmap.width, size.sourceHeight, 0, 0, size.width, size.height);
  return canvas;
}
