import type { browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { ApiClient } from '../../lib/client/api-client.ts';
import { ClientError } from '../../lib/client/errors.ts';
import type { Priority } from '../../lib/client/scheduler.ts';
import type { Account } from './account.ts';
import type { Bookmarks } from './bookmarks.ts';
import {
  type CoverImage,
  type FetchedImage,
  type ImageRef,
  type Rasterise,
  pickRasteriser,
  prepareCover,
  readBlobInPage,
  readImage,
} from './cover-image.ts';

type Browser = typeof browser;

export interface CoverRequest extends ImageRef {
  /** The page the image is on: the bookmark that gets the cover (saved first when it is not). */
  pageUrl: string;
  pageTitle?: string;
}

export interface CoverSet {
  bookmark: Bookmark;
  url: string;
  /** The page was not saved before: this cover's request saved it. */
  savedPage: boolean;
}

export interface CoverDeps {
  account: Account;
  bookmarks: Bookmarks;
  readImage(ref: ImageRef): Promise<FetchedImage>;
  rasterise: Rasterise | null;
  /** A data: URL's bytes (a converted image comes back as one). */
  decode(dataUrl: string): Promise<Uint8Array<ArrayBuffer>>;
}

const needsPro = () => new ClientError('COVER_NEEDS_PRO', 'Cover images need the Pro plan');

/**
 * Set as cover: the plan first, then the image (read, converted when the API
 * would refuse its type, its size checked), and only then requests: the page
 * saved when it is not, and the spec's three steps. Covers run one at a time,
 * so that the extension never holds more than one upload reservation.
 */
export class Covers {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private deps: CoverDeps) {}

  set(request: CoverRequest): Promise<CoverSet> {
    const run = this.queue.then(
      () => this.run(request),
      () => this.run(request),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  async remove(bookmarkId: string): Promise<{ success: boolean }> {
    return (await this.deps.account.client()).call('deleteCover', { params: { id: bookmarkId } });
  }

  private async run(request: CoverRequest): Promise<CoverSet> {
    const { account, bookmarks } = this.deps;
    try {
      if (!(await account.isPro())) throw needsPro();
      const image = await prepareCover(await this.deps.readImage(request), this.deps.rasterise, this.deps.decode);
      const saved = (await bookmarks.lookup(request.pageUrl)).bookmark;
      const bookmark = saved ?? savedNow(await bookmarks.save({ url: request.pageUrl, ...(request.pageTitle?.trim() && { title: request.pageTitle.trim() }) }));
      const url = await uploadCover(await account.client(), bookmark.id, image);
      return { bookmark: { ...bookmark, coverImage: url }, url, savedPage: saved === null };
    } catch (err) {
      if (!(err instanceof ClientError) || err.code !== 'API_ACCESS_PRO_REQUIRED') throw err;
      // Moved off Pro since sign-in: said as what it means here, and kept so that the next cover asks first.
      await account.lostPro();
      throw needsPro();
    }
  }

}

/**
 * The spec's three steps: reservation → upload → save; a reservation that expired or was used meanwhile is
 * replaced once. `priority`: automatic covers go as background work, never ahead of what the user waits for.
 */
export async function uploadCover(client: ApiClient, id: string, image: CoverImage, priority: Priority = 'user', retried = false): Promise<string> {
  const { uploadUrl, reservationId } = await client.call('coverUploadUrl', { params: { id }, priority });
  try {
    const { storageId } = await client.upload(uploadUrl, image.bytes, image.type);
    return (await client.call('saveCover', { params: { id }, body: { storageId, reservationId }, priority })).url;
  } catch (err) {
    if (retried || !(err instanceof ClientError) || err.code !== 'RESERVATION_INVALID') throw err;
    return uploadCover(client, id, image, priority, true);
  }
}

/** The covers service as the background runs it: images fetched with `fetchImage` (a blob: one read in its page), converted where this browser can. */
export function browserCovers(
  browser: Browser,
  account: Account,
  bookmarks: Bookmarks,
  fetchImage: typeof fetch = (input, init) => fetch(input, init),
): Covers {
  return new Covers({
    account,
    bookmarks,
    readImage: (ref) => readImage(ref, { fetch: fetchImage, readBlob: (blob) => readBlobInPage(browser, blob) }),
    rasterise: pickRasteriser(browser),
    decode: async (dataUrl) => new Uint8Array(await (await fetch(dataUrl)).arrayBuffer()),
  });
}

/** A cover needs the bookmark itself: a save the queue holds (the server out of reach) is not one yet. */
function savedNow(result: Awaited<ReturnType<Bookmarks['save']>>): Bookmark {
  if (result.bookmark) return result.bookmark;
  throw new ClientError(result.queued?.error?.code ?? 'NETWORK_ERROR', 'The page is waiting to be saved (the server could not take it now); set its cover once it is saved');
}
