/**
 * Drawing an image the API refuses (SVG, AVIF, BMP…) into a canvas and encoding
 * it again, in a page with a DOM: Chrome's offscreen document, Firefox's
 * background page. A service worker cannot do it: it decodes no SVG.
 */

/** Longest side of a converted cover: an SVG can ask for any size. */
const MAX_SIDE = 4096;
/** An SVG that states no size of its own is drawn this large. */
const DEFAULT_SIDE = 1024;

/** The image in `dataUrl` as PNG, or WebP when the PNG would be larger than maxBytes; a data: URL either way. Rejects when the browser cannot decode it. */
export async function rasterise(dataUrl: string, maxBytes: number): Promise<string> {
  const image = new Image();
  image.src = dataUrl;
  await image.decode();
  const width = image.naturalWidth || DEFAULT_SIDE;
  const height = image.naturalHeight || DEFAULT_SIDE;
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this page cannot draw');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  let blob = await encode(canvas, 'image/png');
  if (blob.size > maxBytes) blob = await encode(canvas, 'image/webp');
  return readAsDataUrl(blob);
}

function encode(canvas: HTMLCanvasElement, type: string): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(`cannot encode ${type}`))), type, 0.9));
}

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('cannot read the converted image'));
    reader.readAsDataURL(blob);
  });
}
