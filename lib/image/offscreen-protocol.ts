/**
 * The background's request to Chrome's offscreen document, which lends it a DOM
 * to convert an image in (a service worker decodes no SVG), and its answer: a
 * data: URL of the PNG or WebP, or why the image could not be drawn. Checked by
 * hand, not with zod: the offscreen page would share zod's chunk with the popup,
 * splitting the popup's scripts into more files (and more bytes).
 */
export interface RasteriseRequest {
  to: 'shelf-rasterise';
  dataUrl: string;
  maxBytes: number;
}
export type RasteriseReply = { dataUrl: string } | { error: string };

const record = (value: unknown): Record<string, unknown> | null => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null);

export function asRasteriseRequest(message: unknown): RasteriseRequest | null {
  const m = record(message);
  return m?.to === 'shelf-rasterise' && typeof m.dataUrl === 'string' && typeof m.maxBytes === 'number'
    ? { to: m.to, dataUrl: m.dataUrl, maxBytes: m.maxBytes }
    : null;
}

export function asRasteriseReply(message: unknown): RasteriseReply {
  const m = record(message);
  if (typeof m?.dataUrl === 'string') return { dataUrl: m.dataUrl };
  return { error: typeof m?.error === 'string' ? m.error : 'the offscreen document did not answer' };
}
