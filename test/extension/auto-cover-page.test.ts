// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import { closeDom } from './support/dom.ts';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type PageCoverDeps, pageCover, previewImagesInPage } from '../../entrypoints/background/page-cover.ts';
import { COVER_TARGET_BYTES, type CardCover, cardSize, withinTarget } from '../../lib/image/card-cover.ts';

afterAll(async () => {
  await closeDom();
});

/** The page's head as a site writes it, at https://news.example/articles/1. */
function pageWith(head: string): void {
  document.head.innerHTML = `<base href="https://news.example/articles/1">${head}`;
}

describe('the page’s preview images, as its meta tags name them', () => {
  it('reads og:image first, then twitter:image, as absolute URLs, each once', () => {
    pageWith(`
      <meta name="twitter:image" content="https://cdn.example/twitter.jpg">
      <meta property="og:image" content="/images/lead.jpg">
      <meta property="og:image:secure_url" content="https://news.example/images/lead.jpg">
      <meta name="twitter:image:src" content="//cdn.example/src.png">`);
    expect(previewImagesInPage()).toEqual(['https://news.example/images/lead.jpg', 'https://cdn.example/twitter.jpg', 'https://cdn.example/src.png']);
  });

  it('takes og:image written as a name, in any case', () => {
    pageWith('<meta name="OG:IMAGE" content="https://news.example/a.png">');
    expect(previewImagesInPage()).toEqual(['https://news.example/a.png']);
  });

  it('leaves out what is empty, not http(s), or no URL at all', () => {
    pageWith(`
      <meta property="og:image" content="   ">
      <meta property="og:image" content="javascript:alert(1)">
      <meta property="og:image" content="data:image/png;base64,AAAA">
      <meta property="og:image" content="http://[::1">
      <meta name="twitter:image" content="ftp://files.example/a.png">`);
    expect(previewImagesInPage()).toEqual([]);
  });

  it('finds none on a page without them', () => {
    pageWith('<title>Plain</title><meta name="description" content="no image here">');
    expect(previewImagesInPage()).toEqual([]);
  });
});

const card = (name: string): CardCover => ({ bytes: new TextEncoder().encode(name) as Uint8Array<ArrayBuffer>, type: 'image/webp' });
const nameOf = async (blob: Blob) => new TextDecoder().decode(await blob.arrayBuffer());

/** A page whose images are named by their URL's last part; `readable` and `drawable` say which of them Shelf may read and can draw. */
function pageDeps(images: string[], options: { readable?: string[]; drawable?: string[]; capture?: boolean } = {}): PageCoverDeps {
  return {
    previewImages: () => Promise.resolve(images.map((name) => `https://news.example/${name}`)),
    readPreview: (url) => {
      const name = url.split('/').pop()!;
      return (options.readable ?? images).includes(name)
        ? Promise.resolve({ bytes: new TextEncoder().encode(name) as Uint8Array<ArrayBuffer>, declaredType: 'image/png' })
        : Promise.reject(new Error('no access'));
    },
    capture: () => Promise.resolve(options.capture === false ? null : new Blob(['capture'])),
    shrink: async (image) => {
      const name = await nameOf(image);
      return name === 'capture' || (options.drawable ?? images).includes(name) ? card(name) : Promise.reject(new Error('cannot decode'));
    },
  };
}
const chosen = async (deps: PageCoverDeps) => {
  const cover = await pageCover(1, deps);
  return cover && new TextDecoder().decode(cover.bytes);
};

describe('the choice of a page’s cover', () => {
  it('takes the first preview image that Shelf may read and can draw', async () => {
    expect(await chosen(pageDeps(['lead.png', 'second.png']))).toBe('lead.png');
    expect(await chosen(pageDeps(['elsewhere.png', 'own.png'], { readable: ['own.png'] }))).toBe('own.png');
    expect(await chosen(pageDeps(['drawing.svg', 'photo.png'], { drawable: ['photo.png'] }))).toBe('photo.png');
  });

  it('captures the visible tab when no preview image will do, or the page has none', async () => {
    expect(await chosen(pageDeps([]))).toBe('capture');
    expect(await chosen(pageDeps(['a.png', 'b.png'], { readable: [] }))).toBe('capture');
  });

  it('tries three preview images at most before the capture', async () => {
    const deps = pageDeps(['1.png', '2.png', '3.png', '4.png'], { readable: ['4.png'] });
    const read = vi.spyOn(deps, 'readPreview');
    expect(await chosen(deps)).toBe('capture');
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('makes none when the page cannot be read nor the tab captured (a hidden tab, no access)', async () => {
    const deps = pageDeps([], { capture: false });
    deps.previewImages = () => Promise.reject(new Error('Cannot access contents of the page'));
    expect(await chosen(deps)).toBeNull();
    deps.capture = () => Promise.reject(new Error('activeTab not granted'));
    expect(await chosen(deps)).toBeNull();
  });
});

describe('a card-sized cover', () => {
  it('scales a wide image to 480 px and cuts a tall one to a square at most', () => {
    expect(cardSize(1200, 630)).toEqual({ width: 480, height: 252, sourceHeight: 630 });
    expect(cardSize(1280, 4000)).toEqual({ width: 480, height: 480, sourceHeight: 1280 });
    expect(cardSize(300, 200)).toEqual({ width: 300, height: 200, sourceHeight: 200 });
    // Narrower, for an image no quality fits at 480 px.
    expect(cardSize(1200, 630, 240)).toEqual({ width: 240, height: 126, sourceHeight: 630 });
  });

  it('steps the quality down until the cover fits its 25 KB, and stops at the first that fits', async () => {
    const tried: number[] = [];
    // An encoder whose output shrinks with the quality, as a real one does: 60 KB at 0.8 … 22.5 KB at 0.3.
    const encode = (quality: number) => {
      tried.push(quality);
      return Promise.resolve(new Blob([new Uint8Array(Math.round(quality * 75 * 1024))]));
    };
    const blob = await withinTarget(encode);
    expect(blob.size).toBeLessThanOrEqual(COVER_TARGET_BYTES);
    expect(tried).toEqual([0.8, 0.7, 0.6, 0.5, 0.4, 0.3]);

    tried.length = 0;
    expect((await withinTarget(encode, 40 * 1024)).size).toBe(Math.round(0.5 * 75 * 1024));
    expect(tried).toEqual([0.8, 0.7, 0.6, 0.5]);
  });

  it('keeps the smallest when even the lowest quality is over the target', async () => {
    const blob = await withinTarget((quality) => Promise.resolve(new Blob([new Uint8Array(Math.round(quality * 200 * 1024))])));
    expect(blob.size).toBe(Math.round(0.3 * 200 * 1024));
  });
});
