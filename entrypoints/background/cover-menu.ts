import type { browser } from 'wxt/browser';
import { ClientError } from '../../lib/client/errors.ts';
import { hostPatterns } from '../../lib/client/host-patterns.ts';
import { keepCoverSiteAccessItem } from '../../lib/storage/items.ts';
import type { Covers } from './covers.ts';
import { notify, notifyFailure, notifyUnsaveable } from './notify.ts';

type Browser = typeof browser;

export const MENU_COVER = 'shelf-set-cover';

/** "Set as cover image" on any image: the page's bookmark gets it as its cover, and a notification says how it went. */
export function setupCoverMenu(browser: Browser, covers: Covers): void {
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus.create({ id: MENU_COVER, title: 'Set as cover image', contexts: ['image'] });
  });

  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId !== MENU_COVER || !info.srcUrl) return;
    // Asked now, before any await: the browser shows a permission prompt only during the click's gesture.
    const access = allowReading(browser, info.srcUrl);
    const pageUrl = info.pageUrl ?? tab?.url ?? '';
    void (async () => {
      if (!/^https?:\/\//.test(pageUrl)) return notifyUnsaveable(browser);
      try {
        if (!(await access.allowed)) {
          throw new ClientError('IMAGE_UNREADABLE', `Shelf may not read images from ${new URL(info.srcUrl!).origin}; allow it when your browser asks.`);
        }
        const { bookmark, savedPage } = await covers.set({
          srcUrl: info.srcUrl!,
          pageUrl,
          ...(tab?.title !== undefined && { pageTitle: tab.title }),
          ...(tab?.id !== undefined && { tabId: tab.id }),
          ...(info.frameId !== undefined && { frameId: info.frameId }),
        });
        await notify(browser, savedPage ? 'Page saved, with its cover' : 'Cover set', bookmark.title || bookmark.url);
      } catch (err) {
        await notifyFailure(browser, 'Cover not set', err);
      } finally {
        await giveBack(browser, access);
      }
    })();
  });
}

interface SiteAccess {
  /** What the browser answers: whether Shelf may read the image's site. */
  allowed: Promise<boolean>;
  /** The origin pattern asked for, and whether Shelf had it before this click; null for an image that needs none (data:). */
  asked: { origins: string[]; heldBefore: Promise<boolean> } | null;
}

/**
 * The origin permission for an http(s) or blob: image (a data: image needs
 * none), requested during the click. Outside a gesture (the request is then
 * refused) an origin already granted still counts. Whether it was held before
 * is asked first, in the same turn, so the answer predates the request's.
 */
function allowReading(browser: Browser, srcUrl: string): SiteAccess {
  const origin = /^(https?|blob):/i.test(srcUrl) && URL.canParse(srcUrl) ? new URL(srcUrl).origin : 'null';
  if (origin === 'null') return { allowed: Promise.resolve(true), asked: null };
  // The host on any port: Firefox grants a pattern with a port (http://host:8080/*) and says it holds it, yet
  // lets no request through under it. For the usual image (its scheme's own port) the two are the same pattern.
  const wanted = { origins: [hostPatterns(origin).anyPort] };
  const heldBefore = browser.permissions.contains(wanted).catch(() => false);
  let allowed: Promise<boolean>;
  try {
    allowed = browser.permissions.request(wanted).catch(() => browser.permissions.contains(wanted));
  } catch {
    allowed = browser.permissions.contains(wanted);
  }
  return { allowed, asked: { origins: wanted.origins, heldBefore } };
}

/**
 * Access granted for this cover alone is given back once the image is read (and the cover set or not),
 * unless the user chose to keep such access (the options page's Site access). Access Shelf held before
 * the click (the user's server, a site kept earlier) is left as it was.
 */
async function giveBack(browser: Browser, access: SiteAccess): Promise<void> {
  if (!access.asked || (await access.asked.heldBefore) || !(await access.allowed.catch(() => false))) return;
  if (await keepCoverSiteAccessItem.get()) return;
  await browser.permissions.remove({ origins: access.asked.origins }).catch(() => undefined);
}
