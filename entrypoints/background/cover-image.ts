import type { browser } from 'wxt/browser';
import { MAX_COVER_BYTES } from '../../lib/api/covers.ts';
import { type ImageType, SNIFF_BYTES, sniffImageType } from '../../lib/api/image-type.ts';
import { ClientError } from '../../lib/client/errors.ts';
import { type RasteriseRequest, asRasteriseReply } from '../../lib/image/offscreen-protocol.ts';
import { rasterise } from '../../lib/image/rasterise.ts';

type Browser = typeof browser;

/** An image as a context-menu click names it. */
export interface ImageRef {
  /** http(s), data: or blob: */
  srcUrl: string;
  /** Where a blob: URL lives: only its own page can read it. */
  tabId?: number;
  frameId?: number;
}

/** The bytes of an image and the type its server (or data: URL) named, if any. */
export interface FetchedImage {
  bytes: Uint8Array<ArrayBuffer>;
  declaredType: string | null;
}

/** What a cover upload sends: bytes the API accepts and their type. */
export interface CoverImage {
  bytes: Uint8Array<ArrayBuffer>;
  type: ImageType;
}

/** An image the API refuses, as PNG or WebP (a data: URL), converted where a DOM is at hand. */
export type Rasterise = (dataUrl: string, maxBytes: number) => Promise<string>;

export const tooLarge = (bytes: number): ClientError =>
  new ClientError('FILE_TOO_LARGE', `The image is ${(bytes / 1024 / 1024).toFixed(1)} MB; a cover may be 10 MB at most`);

/**
 * Reads an image's bytes: fetched by the extension (which may read any origin it
 * was allowed), except a blob: URL, which only its page can read (readBlob).
 * Never more than maxBytes: a larger image is refused before anything is sent anywhere.
 */
export async function readImage(
  ref: ImageRef,
  deps: { fetch: typeof fetch; readBlob(ref: ImageRef): Promise<string> },
  maxBytes = MAX_COVER_BYTES,
): Promise<FetchedImage> {
  const url = ref.srcUrl.startsWith('blob:') ? await deps.readBlob(ref) : ref.srcUrl;
  if (!/^(https?|data):/i.test(url)) {
    throw new ClientError('IMAGE_UNREADABLE', 'Shelf reads images from web pages (http, https, data: and blob: addresses) only.');
  }
  let response: Response;
  try {
    response = await deps.fetch(url, { credentials: 'include' });
  } catch (err) {
    throw new ClientError('IMAGE_UNREADABLE', `The image could not be downloaded (${err instanceof Error ? err.message : String(err)}).`);
  }
  if (!response.ok) throw new ClientError('IMAGE_UNREADABLE', `The image’s server answered ${response.status}: the image may be gone, or need you to sign in there.`);
  const declared = Number(response.headers.get('Content-Length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(declared);
  }
  return { bytes: await readAtMost(response, maxBytes), declaredType: mediaType(response.headers.get('Content-Type')) };
}

async function readAtMost(response: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader?.cancel();
      throw tooLarge(size);
    }
    chunks.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

const mediaType = (header: string | null): string | null => header?.split(';')[0]?.trim().toLowerCase() || null;

/** A blob: image read in its own page (chrome.scripting), as a data: URL; the page says when the blob is too large to bother. */
export async function readBlobInPage(browser: Browser, ref: ImageRef, maxBytes = MAX_COVER_BYTES): Promise<string> {
  if (ref.tabId === undefined) throw new ClientError('IMAGE_UNREADABLE', 'The page that holds this image is gone.');
  let answer: unknown;
  try {
    const [result] = await browser.scripting.executeScript({
      target: { tabId: ref.tabId, frameIds: [ref.frameId ?? 0] },
      func: blobAsDataUrl,
      args: [ref.srcUrl, maxBytes],
    });
    answer = result?.result;
  } catch (err) {
    throw new ClientError('IMAGE_UNREADABLE', `Shelf could not read the image in its page (${err instanceof Error ? err.message : String(err)}).`);
  }
  if (typeof answer === 'number') throw tooLarge(answer);
  if (typeof answer !== 'string') throw new ClientError('IMAGE_UNREADABLE', 'The page no longer holds this image; reload it and try again.');
  return answer;
}

/** Runs in the page, serialised by chrome.scripting: self-contained. Answers a data: URL, the size when too large, or null. */
async function blobAsDataUrl(url: string, maxBytes: number): Promise<string | number | null> {
  try {
    const blob = await (await fetch(url)).blob();
    if (blob.size > maxBytes) return blob.size;
    return await new Promise<string | null>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
      reader.onerror = () => resolve(null);
      reader.readAsDataURL(blob);
    });
  } catch {
    return null;
  }
}

const SVG = /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?<svg[\s>]/i;

/**
 * The image as the API takes it: JPEG, PNG, GIF and WebP as they are; any other
 * image (SVG, AVIF, BMP…) converted to PNG or WebP where this browser can; what
 * is no image, or cannot be converted, refused in words.
 */
export async function prepareCover(
  image: FetchedImage,
  rasterise: Rasterise | null,
  decode: (dataUrl: string) => Promise<Uint8Array<ArrayBuffer>>,
  maxBytes = MAX_COVER_BYTES,
): Promise<CoverImage> {
  const type = sniffImageType(image.bytes.subarray(0, SNIFF_BYTES));
  if (type) return { bytes: image.bytes, type };
  const isSvg = SVG.test(new TextDecoder().decode(image.bytes.subarray(0, 1024)));
  const source = isSvg ? 'image/svg+xml' : image.declaredType?.startsWith('image/') ? image.declaredType : null;
  if (!source) throw new ClientError('IMAGE_UNSUPPORTED', `That address holds no image${image.declaredType ? ` (it holds ${image.declaredType})` : ''}.`);
  const name = source.replace(/^image\/|\+xml$/g, '').toUpperCase();
  const refusal = new ClientError('IMAGE_UNSUPPORTED', `Shelf could not convert this ${name} image to PNG; choose a JPEG, PNG, GIF or WebP image.`);
  if (!rasterise) throw refusal;
  let converted: Uint8Array<ArrayBuffer>;
  try {
    converted = await decode(await rasterise(toDataUrl(image.bytes, source), maxBytes));
  } catch {
    throw refusal;
  }
  const convertedType = sniffImageType(converted.subarray(0, SNIFF_BYTES));
  if (!convertedType) throw refusal;
  if (converted.byteLength > maxBytes) throw tooLarge(converted.byteLength);
  return { bytes: converted, type: convertedType };
}

function toDataUrl(bytes: Uint8Array, type: string): string {
  const CHUNK = 0x8000;
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return `data:${type};base64,${btoa(binary)}`;
}

/**
 * Where this browser converts images: Firefox's background page has a DOM of
 * its own; Chrome's service worker borrows one from an offscreen document; a
 * browser with neither converts nothing (and says so).
 */
export function pickRasteriser(browser: Browser): Rasterise | null {
  if (typeof document !== 'undefined') return rasterise;
  if (browser.offscreen) return (dataUrl, maxBytes) => inOffscreenDocument(browser, dataUrl, maxBytes);
  return null;
}

async function inOffscreenDocument(browser: Browser, dataUrl: string, maxBytes: number): Promise<string> {
  await browser.offscreen
    .createDocument({ url: browser.runtime.getURL('/offscreen.html'), reasons: ['BLOBS'], justification: 'Converts an SVG or AVIF image to PNG for a bookmark cover' })
    // One left open by a conversion that was cut short serves as well.
    .catch((err: unknown) => {
      if (!String(err).includes('single offscreen')) throw err;
    });
  try {
    const request: RasteriseRequest = { to: 'shelf-rasterise', dataUrl, maxBytes };
    const reply = asRasteriseReply(await browser.runtime.sendMessage(request));
    if ('error' in reply) throw new Error(reply.error);
    return reply.dataUrl;
  } finally {
    await browser.offscreen.closeDocument().catch(() => undefined);
  }
}
