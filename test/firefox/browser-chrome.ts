import type { Browser } from 'puppeteer-core';

/**
 * Firefox's own window (chrome://browser/content/browser.xhtml), reached over WebDriver BiDi with the privileged
 * scope that --remote-allow-system-access opens: where the browser's key bindings, context menu and background
 * pages live, so that a test takes the browser's own path where headless Firefox gives it no user to take it.
 */

interface BidiConnection {
  send(method: string, params: object): Promise<{ result: unknown }>;
}

interface EvaluateResult {
  type: 'success' | 'exception';
  result?: { value?: unknown };
  exceptionDetails?: { text: string };
}

/** Runs a script expression in the browser window's privileged scope and answers its (JSON-like) value. */
export async function inBrowserChrome<T>(browser: Browser, expression: string): Promise<T> {
  // Puppeteer's BiDi browser keeps its connection to itself: the privileged scope is not part of its API.
  const connection = (browser as unknown as { connection: BidiConnection }).connection;
  const tree = (await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' })).result as { contexts: { context: string; url: string }[] };
  const window = tree.contexts.find((context) => context.url === 'chrome://browser/content/browser.xhtml');
  if (!window) throw new Error('no Firefox browser window to run in');
  const answer = (await connection.send('script.evaluate', { expression, target: { context: window.context }, awaitPromise: true })).result as EvaluateResult;
  if (answer.type === 'exception') throw new Error(`in Firefox's window: ${answer.exceptionDetails?.text ?? 'an exception'}`);
  return answer.result?.value as T;
}

/**
 * The extension's keyboard command as its shortcut runs it: Firefox binds each command to a <key> of the
 * extension's keyset in the window, and a key press runs that key's command. (Synthetic key presses reach only
 * the page's content, never the window's keysets.)
 */
export async function runExtensionCommand(browser: Browser, geckoId: string, name: string): Promise<void> {
  const found = await inBrowserChrome<boolean>(
    browser,
    `(() => {
      const extension = WebExtensionPolicy.getByID(${JSON.stringify(geckoId)}).extension;
      const parts = (extension.manifest.commands?.[${JSON.stringify(name)}]?.suggested_key?.default ?? '').toLowerCase().split('+');
      const letter = parts.pop();
      const modifiers = parts.map((part) => (part === 'ctrl' ? 'accel' : part)).sort().join(',');
      const key = [...document.querySelectorAll('#ext-keyset-id-' + extension.id.toLowerCase().replace(/[^a-z0-9_-]/g, '_') + ' key')].find(
        (k) => k.getAttribute('key')?.toLowerCase() === letter && (k.getAttribute('modifiers') ?? '').split(',').sort().join(',') === modifiers,
      );
      key?.doCommand();
      return Boolean(key);
    })()`,
  );
  if (!found) throw new Error(`Firefox has no key bound to the ${name} command`);
}

/**
 * Chooses the extension's item with that title from the page's context menu, open now (after a right-click).
 * Firefox puts an extension's items in a submenu named after it when more than one applies: opened first.
 */
export async function chooseContextMenuItem(browser: Browser, title: string): Promise<void> {
  for (const end = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const chosen = await inBrowserChrome<boolean>(
      browser,
      `(() => {
        const menu = document.getElementById('contentAreaContextMenu');
        const item = menu.state === 'open' && [...menu.querySelectorAll('menuitem[id*="-menuitem-"]')].find((i) => i.label === ${JSON.stringify(title)});
        if (!item) return false;
        const popup = item.parentNode;
        if (popup !== menu && popup.state !== 'open') {
          popup.parentNode.openMenu(true);
          return false;
        }
        popup.activateItem(item);
        return true;
      })()`,
    );
    if (chosen) return;
    if (Date.now() > end) {
      // Closed, so that the next right-click opens a menu of its own.
      await inBrowserChrome(browser, `document.getElementById('contentAreaContextMenu').hidePopup()`);
      throw new Error(`the context menu showed no "${title}" within 10 s`);
    }
  }
}

/**
 * Unloads the extension's event page as Firefox does when it has been idle (the idle timer's own call, which
 * keeps nothing alive), and answers once it has stopped: the next event it listens for starts it again.
 */
export async function unloadBackground(browser: Browser, geckoId: string): Promise<void> {
  await inBrowserChrome<void>(browser, `WebExtensionPolicy.getByID(${JSON.stringify(geckoId)}).extension.terminateBackground()`);
  for (const end = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const state = await backgroundState(browser, geckoId);
    if (state === 'stopped') return;
    if (Date.now() > end) throw new Error(`the event page is still ${state} 10 s after it was told to stop`);
  }
}

/** The event page's state as Firefox keeps it: stopped, starting, running or suspending. */
export const backgroundState = (browser: Browser, geckoId: string): Promise<string> =>
  inBrowserChrome<string>(browser, `WebExtensionPolicy.getByID(${JSON.stringify(geckoId)}).extension.backgroundState`);

/** The extension API's id of the tab in front of Firefox's window. */
export const frontTabId = (browser: Browser): Promise<number> =>
  inBrowserChrome<number>(
    browser,
    `ChromeUtils.importESModule('resource://gre/modules/ExtensionParent.sys.mjs').ExtensionParent.apiManager.global.tabTracker.getId(gBrowser.selectedTab)`,
  );

/** Where Firefox saved the downloads of this run that have finished, oldest first (its Downloads list). */
export const downloadedPaths = async (browser: Browser): Promise<string[]> =>
  // As JSON: WebDriver BiDi hands an array back as remote values, not as plain strings.
  JSON.parse(
    await inBrowserChrome<string>(
      browser,
      `(async () => {
        const { Downloads } = ChromeUtils.importESModule('resource://gre/modules/Downloads.sys.mjs');
        const list = await Downloads.getList(Downloads.ALL);
        return JSON.stringify((await list.getAll()).filter((download) => download.succeeded).map((download) => download.target.path));
      })()`,
    ),
  ) as string[];

/**
 * Grants the extension access to these origins as about:addons → Permissions does when the user turns a
 * site on (ExtensionPermissions, which the extension sees as permissions.onAdded).
 */
export const grantAsAboutAddons = (browser: Browser, geckoId: string, origins: string[]): Promise<void> =>
  inBrowserChrome<void>(
    browser,
    `(async () => {
      const { ExtensionPermissions } = ChromeUtils.importESModule('resource://gre/modules/ExtensionPermissions.sys.mjs');
      const policy = WebExtensionPolicy.getByID(${JSON.stringify(geckoId)});
      await ExtensionPermissions.add(policy.id, { permissions: [], origins: ${JSON.stringify(origins)} }, policy.extension);
    })()`,
  );

/**
 * Records, from now on, each system notification Firefox shows (the title and text its alerts service is given,
 * whichever extension context asked): a recorder that stands in for the alerts service, kept in the browser's
 * window, so that an event page unloaded when idle (and started again) takes nothing recorded with it.
 */
export const recordAlerts = (browser: Browser): Promise<void> =>
  inBrowserChrome<void>(
    browser,
    `(() => {
      if (window.__shelfAlerts) {
        window.__shelfAlerts.length = 0;
        return;
      }
      const shown = (window.__shelfAlerts = []);
      const contract = '@mozilla.org/alerts-service;1';
      const original = Cc[contract].getService(Ci.nsIAlertsService);
      const recorder = { QueryInterface: ChromeUtils.generateQI(['nsIAlertsService']) };
      for (const name in original) {
        if (name !== 'QueryInterface' && typeof original[name] === 'function') recorder[name] = (...args) => original[name](...args);
      }
      recorder.showAlert = (alert, listener) => {
        shown.push({ title: alert.title, message: alert.text });
        return original.showAlert(alert, listener);
      };
      Components.manager.QueryInterface(Ci.nsIComponentRegistrar).registerFactory(Services.uuid.generateUUID(), 'Shelf test: alerts recorded', contract, {
        QueryInterface: ChromeUtils.generateQI(['nsIFactory']),
        createInstance: (iid) => recorder.QueryInterface(iid),
      });
    })()`,
  );

/** The notifications shown since recordAlerts, oldest first. */
export const recordedAlerts = async (browser: Browser): Promise<Array<{ title: string; message: string }>> =>
  // As JSON: WebDriver BiDi hands an array back as remote values, not as plain objects.
  JSON.parse(await inBrowserChrome<string>(browser, `JSON.stringify(window.__shelfAlerts ?? [])`)) as Array<{ title: string; message: string }>;
