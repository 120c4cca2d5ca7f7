import type { browser } from 'wxt/browser';
import { ClientError } from '../../lib/client/errors.ts';
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
    const allowed = allowReading(browser, info.srcUrl);
    const pageUrl = info.pageUrl ?? tab?.url ?? '';
    void (async () => {
      if (!/^https?:\/\//.test(pageUrl)) return notifyUnsaveable(browser);
      try {
        if (!(await allowed)) {
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
      }
    })();
  });
}

/**
 * The origin permission for an http(s) or blob: image (a data: image needs
 * none), requested during the click. Outside a gesture (the request is then
 * refused) an origin already granted still counts.
 */
function allowReading(browser: Browser, srcUrl: string): Promise<boolean> {
  const origin = /^(https?|blob):/i.test(srcUrl) && URL.canParse(srcUrl) ? new URL(srcUrl).origin : 'null';
  if (origin === 'null') return Promise.resolve(true);
  const wanted = { origins: [`${origin}/*`] };
  try {
    return browser.permissions.request(wanted).catch(() => browser.permissions.contains(wanted));
  } catch {
    return browser.permissions.contains(wanted);
  }
}
