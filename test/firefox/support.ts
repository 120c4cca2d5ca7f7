import { randomUUID } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import puppeteer, { type Browser, type ElementHandle, JSHandle, type Page, TimeoutError } from 'puppeteer-core';
import { inject } from 'vitest';
import type { ExtensionUser, MenuTarget, UserPage } from '../scenarios/user.ts';
import { buildDirOf, copyCompleteBuild, removeDir, tempDir } from '../browser/support.ts';
import type { Browser as ExtensionApi } from 'wxt/browser';
import { chooseContextMenuItem, downloadedPaths, frontTabId, inBrowserChrome, recordAlerts, recordedAlerts, runExtensionCommand, unloadBackground } from './browser-chrome.ts';
import { enterInOmnibox, typeInOmnibox } from './omnibox-events.ts';
import type { RoleQuery, Wanted } from './roles-in-page.ts';

/**
 * The built Firefox extension (.output/firefox-mv3) in real Firefox ESR, driven over WebDriver BiDi by
 * puppeteer-core (no geckodriver, no browser download).
 */

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: typeof ExtensionApi;

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const GECKO_ID = 'shelf@bookmark-library.local';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Waits until the page shows the document at `url`, its script running. */
async function loaded(page: Page, url: string): Promise<Page> {
  // An evaluation made while the document is replaced may fail with a protocol error: ask again until the deadline.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ready = await page.evaluate((target) => location.href === target && document.readyState !== 'loading', url).catch(() => false);
    if (ready) return page;
    if (Date.now() > deadline) throw new Error(`${url} did not load within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens a moz-extension:// page in a new tab, its uncaught errors' messages added to `errors` from the start. */
async function openPage(browser: Browser, url: string, errors: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => errors.push(messageOf(error)));
  // Firefox may never report an extension page's load over BiDi: wait for the document instead.
  void page.goto(url, { waitUntil: 'domcontentloaded' }).catch(() => undefined);
  return loaded(page, url);
}

const ROLES_MISSING = 'roles-in-page.ts is not in this page';

/** roles-in-page.ts as one script for a page (for the global setup, which hands it to every file). */
export async function bundleRolesInPage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('roles-in-page.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: '__shelfRoles',
    footer: { js: 'globalThis.__shelfRoles = __shelfRoles;' },
    platform: 'browser',
    // testing-library reads its settings from the environment, which a page does not have.
    define: { 'process.env': '{}' },
    minify: true,
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/**
 * Runs in the page: calls one of roles-in-page.ts's functions, or answers `missing` where its bundle is not there
 * (a page opened or loaded again since). Answered, not thrown: Puppeteer's waits take a throw for "not yet".
 */
function callRoles(method: string, args: unknown[], missing: string): unknown {
  const roles = (globalThis as { __shelfRoles?: Record<string, (...a: unknown[]) => unknown> }).__shelfRoles;
  return roles ? roles[method]!(...args) : missing;
}

/** Answers what `look` answers in `page`, first putting roles-in-page.ts into the page where `look` finds it missing. */
async function withRoles<R>(page: Page, look: () => Promise<unknown>): Promise<R> {
  for (let tries = 1; ; tries++) {
    const answer = await look();
    const value = answer instanceof JSHandle && !answer.asElement() ? await answer.jsonValue() : answer;
    if (value !== ROLES_MISSING || tries > 2) return answer as R;
    await page.evaluate(prepared('firefoxRolesScript'));
  }
}

/** Waits until the page has an element as wanted (see Wanted) and answers it. */
async function waitForRole(page: Page, query: RoleQuery, wanted: Wanted, timeoutMs = 10_000): Promise<ElementHandle<HTMLElement>> {
  try {
    return await withRoles(page, () => page.waitForFunction(callRoles, { timeout: timeoutMs, polling: 50 }, 'find', [query, wanted], ROLES_MISSING));
  } catch (err) {
    if (!(err instanceof TimeoutError)) throw err;
    const named = query.name === undefined ? (query.nameStart === undefined ? '' : ` named "${query.nameStart}…"`) : ` named "${query.name}"`;
    const inside = query.within ? ` in the ${query.within[0]} "${query.within[1]}"` : '';
    throw new Error(`no ${query.role}${named}${inside} ${wanted === 'gone' ? 'went away' : `was ${wanted}`} within ${timeoutMs / 1000} s`);
  }
}

/** How many elements the query finds in the page now. */
const countInPage = (page: Page, query: RoleQuery) => withRoles<number>(page, () => page.evaluate(callRoles, 'count', [query], ROLES_MISSING));

/** The text of each element the query finds in the page now. */
const textsInPage = (page: Page, query: RoleQuery) => withRoles<string[]>(page, () => page.evaluate(callRoles, 'texts', [query], ROLES_MISSING));

/**
 * Clicks the element as a user does (a real click through WebDriver BiDi's input actions, so a user gesture), once
 * the page shows it enabled; again where React replaced it between finding and clicking.
 */
async function clickRole(page: Page, query: RoleQuery, timeoutMs = 30_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; ; ) {
    const element = await waitForRole(page, query, 'actionable', Math.max(end - Date.now(), 1));
    try {
      return await element.click();
    } catch (err) {
      if (Date.now() > end || !/detached|stale|no such node/i.test(messageOf(err))) throw err;
    } finally {
      await element.dispose().catch(() => undefined);
    }
  }
}

/** test/scenarios' user over Puppeteer: elements found by ARIA role and exact name (roles-in-page.ts). */
async function firefoxPage(browser: Browser, url: string): Promise<UserPage> {
  const errors: string[] = [];
  let page = await openPage(browser, url, errors);
  /** The control of the <label> with that text, or the field of that aria-label: a password field has no role to find it by. */
  const labelled = async (label: string) => {
    const found = await page.waitForFunction(
      (wanted) =>
        // The label's own text: a <select> inside its <label> adds its options' text to the label's.
        [...document.querySelectorAll('label')].find((node) => [node, node.firstElementChild].some((text) => text?.textContent?.trim() === wanted))?.control ??
        [...document.querySelectorAll('input, textarea')].find((node) => node.getAttribute('aria-label') === wanted) ??
        null,
      { timeout: 10_000 },
      label,
    );
    return found.asElement() as ElementHandle<HTMLInputElement>;
  };
  return {
    async click(role, name, options = {}) {
      if (!options.shift) return clickRole(page, { role, name });
      // The input state BiDi keeps between actions holds Shift down for the click.
      await page.keyboard.down('Shift');
      try {
        await clickRole(page, { role, name });
      } finally {
        await page.keyboard.up('Shift');
      }
    },
    clickIn: (within, role, name) => clickRole(page, { role, name, within }),
    clickStartingWith: (role, start) => clickRole(page, { role, nameStart: start }, 10_000),
    async select(label, option) {
      const found = await page.waitForFunction(
        // The label's own text: a <select> inside its <label> adds its options' text to the label's.
        (wanted) =>
          [...document.querySelectorAll('select')].find(
            (field) => field.getAttribute('aria-label') === wanted || [...(field.labels ?? [])].some((l) => (l.firstElementChild ?? l).textContent?.trim() === wanted),
          ) ?? null,
        { timeout: 10_000 },
        label,
      );
      const field = found.asElement() as ElementHandle<HTMLSelectElement>;
      const value = await field.evaluate((node, text) => [...node.options].find((o) => o.textContent?.trim() === text)?.value ?? null, option);
      if (value === null) throw new Error(`${label} has no option "${option}"`);
      await field.select(value);
    },
    async fill(label, text) {
      const field = await labelled(label);
      await field.evaluate((input) => input.select());
      await field.type(text);
    },
    async chooseFile(label, file) {
      // The file picker takes files from disk (WebDriver BiDi's input.setFiles), and the page reads a chosen file
      // when it needs it: written to a folder removed when this process ends.
      const path = join(tempDir('shelf-upload-'), file.name);
      writeFileSync(path, file.text);
      await (await labelled(label)).uploadFile(path);
    },
    press: (key) => page.keyboard.press(key),
    valueOf: async (label) => (await labelled(label)).evaluate((input) => input.value),
    async isDisabled(role, name) {
      const element = await waitForRole(page, { role, name }, 'present');
      return element.evaluate((node) => (node as HTMLButtonElement).disabled || node.getAttribute('aria-disabled') === 'true');
    },
    async isChecked(role, name) {
      const element = await waitForRole(page, { role, name }, 'present');
      return element.evaluate((node) => (node as HTMLInputElement).checked || node.getAttribute('aria-checked') === 'true');
    },
    async textsIn(within, role) {
      await waitForRole(page, { role: within[0], name: within[1] }, 'present');
      return textsInPage(page, { role, within });
    },
    async waitForText(text, options = {}) {
      // A pattern crosses as its source and flags; a string is found in any case, as Playwright's getByText finds it.
      const wanted = typeof text === 'string' ? { text: text.toLowerCase() } : { source: text.source, flags: text.flags };
      await page.waitForFunction(
        (w: { text?: string; source?: string; flags?: string }) =>
          [...document.querySelectorAll('body *')].some((node) => {
            const shown = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
            return w.text !== undefined ? shown.toLowerCase().includes(w.text) : new RegExp(w.source!, w.flags).test(shown);
          }),
        { timeout: options.timeoutMs ?? 10_000, polling: 100 },
        wanted,
      );
    },
    errors: () => [...errors],
    async waitFor(role, name, options = {}) {
      await waitForRole(page, { role, name }, options.gone ? 'gone' : 'visible', options.timeoutMs);
    },
    async textOf(role, name) {
      const element = await waitForRole(page, { role, name }, 'present');
      return (await element.evaluate((node) => node.textContent)) ?? '';
    },
    count: (role, name) => countInPage(page, { role, name }),
    async attributeOf(role, name, attribute) {
      const element = await waitForRole(page, { role, name }, 'present');
      return element.evaluate((node, wanted) => node.getAttribute(wanted), attribute);
    },
    async reload() {
      // A reloaded moz-extension:// page leaves Puppeteer's frame detached over BiDi: the same page afresh in a new tab.
      const old = page;
      page = await openPage(browser, url, errors);
      await old.close();
    },
    // Arguments cross as JSON: the serializable type the scenarios pass is the type the page gets.
    evaluate: <A, R>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown) as Promise<R>,
    close: () => page.close(),
  };
}

/**
 * Puts what the user right-clicks at the top of the page, as #shelf-menu-target: a link, an image, or the page's
 * body. An image is there once it has loaded or failed to: Firefox's menu counts one still loading as no image.
 */
async function placeTarget(target: MenuTarget): Promise<void> {
  document.getElementById('shelf-menu-target')?.removeAttribute('id');
  let element: HTMLElement = document.body;
  if ('link' in target) element = Object.assign(document.createElement('a'), { href: target.link, textContent: 'A link worth keeping' });
  if ('image' in target) {
    const image = Object.assign(document.createElement('img'), { src: target.image, alt: 'An image', width: 64, height: 64 });
    await new Promise((settled) => {
      image.onload = image.onerror = settled;
    });
    element = image;
  }
  if (element !== document.body) document.body.prepend(element);
  element.id = 'shelf-menu-target';
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A profile Firefox has started in once (global-setup.ts): each launch starts from a copy of it. */
    firefoxProfileTemplate: string;
    /** roles-in-page.ts bundled as one script (global-setup.ts), put into a page by withRoles. */
    firefoxRolesScript: string;
  }
}

/**
 * What the firefox project's global setup hands each file (global-setup.ts), or, in a process outside vitest (the
 * bench), what prepareFirefoxRun made: vitest's `inject` exists only in a test run.
 */
let preparedHere: { firefoxProfileTemplate: string; firefoxRolesScript: string } | null = null;
const prepared = (name: 'firefoxProfileTemplate' | 'firefoxRolesScript'): string => preparedHere?.[name] ?? inject(name);

/** For a process outside vitest: the profile template (in `dir`) and the roles script that global-setup.ts provides a test run. */
export async function prepareFirefoxRun(dir: string): Promise<void> {
  await makeProfileTemplate(dir);
  preparedHere = { firefoxProfileTemplate: dir, firefoxRolesScript: await bundleRolesInPage() };
}

/**
 * Starts Firefox once in `dir` and closes it: its first start's work (the profile's databases, the add-on
 * registry, the startup cache) is then done, and a copy starts with about a third less CPU (at load 20 here:
 * 7 s instead of 10 s, with the extension installed), for every test file.
 */
export async function makeProfileTemplate(dir: string): Promise<void> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, userDataDir: dir });
  await browser.close();
}

interface BidiConnection {
  send(method: string, params: object): Promise<{ result: unknown }>;
}
// Puppeteer's BiDi browser keeps its connection to itself: the browser's own list of tabs is not part of its API.
const bidi = (browser: Browser) => (browser as unknown as { connection: BidiConnection }).connection;

/** The tabs of Firefox's windows as WebDriver BiDi knows them, each with its address. */
async function topContexts(browser: Browser): Promise<Array<{ context: string; url: string }>> {
  return ((await bidi(browser).send('browsingContext.getTree', { maxDepth: 0 })).result as { contexts: Array<{ context: string; url: string }> }).contexts;
}

export interface FirefoxUser extends ExtensionUser {
  browser: Browser;
  /** moz-extension://<uuid>/<path> */
  url(path: string): string;
}

/** A Firefox the tests started: its folder (profile and downloads), and whether a test file's user is in it now. */
interface TestFirefox {
  browser: Browser;
  root: string;
  inUse: boolean;
}

/**
 * Work Firefox does beside the pages that no test looks at, stopped (beyond what Puppeteer's own prefs stop): every
 * page a test opens is a tab opened and closed, and the project is bound by CPU. Firefox's parent process then keeps
 * no spare content process ready and no closed tab for "undo close", and a site's content process outlives its last
 * tab (the test servers are all 127.0.0.1, one site); pages are not scanned for their language or for address and
 * card forms, and visits are not written to history, guessed at or prefetched. The extension's own APIs are untouched.
 */
const QUIET_FIREFOX = {
  'dom.ipc.processPrelaunch.enabled': false,
  'dom.ipc.keepProcessesAlive.webIsolated.perOrigin': 1,
  'browser.sessionstore.max_tabs_undo': 0,
  'browser.sessionstore.max_windows_undo': 0,
  'browser.sessionstore.interval': 3_600_000,
  'browser.translations.enable': false,
  'extensions.formautofill.addresses.enabled': false,
  'extensions.formautofill.creditCards.enabled': false,
  'places.history.enabled': false,
  'network.predictor.enabled': false,
  'network.prefetch-next': false,
  'network.dns.disablePrefetch': true,
  'browser.urlbar.speculativeConnect.enabled': false,
  'browser.places.speculativeConnect.enabled': false,
  'toolkit.telemetry.archive.enabled': false,
  'toolkit.telemetry.newProfilePing.enabled': false,
  'toolkit.telemetry.shutdownPingSender.enabled': false,
  'toolkit.telemetry.firstShutdownPing.enabled': false,
  'toolkit.telemetry.bhrPing.enabled': false,
};

/** Headless Firefox ESR started from a copy of the profile template, in a folder of its own. */
async function startFirefox(): Promise<TestFirefox> {
  const root = tempDir('shelf-firefox-');
  try {
    const userDataDir = join(root, 'profile');
    cpSync(prepared('firefoxProfileTemplate'), userDataDir, { recursive: true });
    const browser = await puppeteer.launch({
      userDataDir,
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      // WebDriver may navigate to moz-extension:// pages only with system access (so in Firefox 153 ESR).
      args: ['--remote-allow-system-access'],
      extraPrefsFirefox: {
        'extensions.webextOptionalPermissionPrompts': false,
        // Downloads into this Firefox's own folder, under the names it chose, never asking where.
        'browser.download.folderList': 2,
        'browser.download.dir': join(root, 'downloads'),
        ...QUIET_FIREFOX,
      },
    });
    return { browser, root, inUse: false };
  } catch (err) {
    removeDir(root);
    throw err;
  }
}

async function stopFirefox(firefox: TestFirefox): Promise<void> {
  await firefox.browser.close().catch(() => undefined);
  removeDir(firefox.root);
}

/**
 * The Firefox this worker's test files share (they share the worker's modules): a start and a stop of Firefox cost
 * some 6 s of CPU, 17 files a run, and the suite is bound by CPU. Each file's user gets the add-on installed afresh at
 * a moz-extension:// origin of its own (so storage, IndexedDB and granted permissions start empty), and what a file
 * may have changed in the browser itself is put back when its user closes (see putBack).
 */
let kept: Promise<TestFirefox> | null = null;

function keptFirefox(): Promise<TestFirefox> {
  return (kept ??= startFirefox().catch((err: unknown) => {
    kept = null;
    throw err;
  }));
}

/** What a test file may leave in Firefox beside the add-on: tabs and windows, downloads, Places bookmarks, the colour scheme. */
async function putBack(firefox: TestFirefox): Promise<void> {
  const fresh = await firefox.browser.newPage();
  for (const page of await firefox.browser.pages()) if (page !== fresh) await page.close();
  await inBrowserChrome<void>(
    firefox.browser,
    `(async () => {
      const { Downloads } = ChromeUtils.importESModule('resource://gre/modules/Downloads.sys.mjs');
      const downloads = await Downloads.getList(Downloads.ALL);
      for (const download of await downloads.getAll()) await downloads.remove(download);
      await ChromeUtils.importESModule('resource://gre/modules/PlacesUtils.sys.mjs').PlacesUtils.bookmarks.eraseEverything();
      Services.prefs.clearUserPref('layout.css.prefers-color-scheme.content-override');
      // recordAlerts's recorder stays registered (one, however many files record): its list starts empty.
      if (window.__shelfAlerts) window.__shelfAlerts.length = 0;
    })()`,
  );
}

/**
 * The Firefox for a new user: the worker's kept one when no user is in it (started at the first call), otherwise
 * (two users at once in a file, or `alone`) one of the user's own.
 */
async function firefoxForUser(alone: boolean): Promise<{ firefox: TestFirefox; release: () => Promise<void> }> {
  if (!alone) {
    let shared = await keptFirefox();
    if (!shared.browser.connected) {
      // It crashed since the last file, or a test closed it.
      kept = null;
      shared = await keptFirefox();
    }
    if (!shared.inUse) {
      shared.inUse = true;
      const release = async () => {
        try {
          await putBack(shared);
          shared.inUse = false;
        } catch {
          // Not put back: the next file starts another.
          if (kept && (await kept) === shared) kept = null;
          await stopFirefox(shared);
        }
      };
      return { firefox: shared, release };
    }
  }
  const own = await startFirefox();
  return { firefox: own, release: () => stopFirefox(own) };
}

/**
 * The Firefox build installed as a temporary add-on in headless Firefox ESR (the worker's kept one unless `alone`:
 * the bench, whose process must end when it is done), at a moz-extension:// origin of its own. Permission requests
 * made during a click are answered yes (extensions.webextOptionalPermissionPrompts off: the stand-in for the user's
 * answer; it grants nothing by itself).
 */
export async function launchFirefoxUser(options: { alone?: boolean } = {}): Promise<FirefoxUser> {
  const { firefox, release } = await firefoxForUser(options.alone ?? false);
  const { browser } = firefox;
  const extensionDir = tempDir('shelf-firefox-extension-');
  const uuid = randomUUID();
  try {
    await copyCompleteBuild(extensionDir, buildDirOf('firefox'));
    // Read by Firefox when it installs the add-on: the origin the test's pages are opened at.
    await inBrowserChrome<void>(browser, `Services.prefs.setStringPref('extensions.webextensions.uuids', ${JSON.stringify(JSON.stringify({ [GECKO_ID]: uuid }))})`);
    await browser.installExtension(extensionDir);
  } catch (err) {
    removeDir(extensionDir);
    await release();
    throw err;
  }
  const url = (path: string) => `moz-extension://${uuid}/${path}`;
  const webPages = new Map<number, Page>();
  // Where the extension API is asked what a user cannot see (a tab's badge): an extension page of its own, opened
  // before any web page so that it never comes in front of one.
  let apiPage: Promise<UserPage> | undefined;
  const extensionPage = () => (apiPage ??= firefoxPage(browser, url('options.html')));
  const inExtensionPage = async <A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> => (await extensionPage()).evaluate(fn, arg);
  return {
    browserName: 'firefox',
    browser,
    url,
    open: (path) => firefoxPage(browser, url(path)),
    async opened(path) {
      // Firefox tells WebDriver BiDi's session of no tab an extension page opens (no contextCreated event), so
      // Puppeteer cannot drive it: once the browser shows it, it is closed and the same page opened in a tab of Puppeteer's.
      const before = new Set((await topContexts(browser)).map((context) => context.context));
      for (const end = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
        const tab = (await topContexts(browser)).find((context) => !before.has(context.context) && context.url === url(path));
        if (tab) {
          await bidi(browser).send('browsingContext.close', { context: tab.context });
          return firefoxPage(browser, url(path));
        }
        if (Date.now() > end) throw new Error(`no tab opened ${path} within 10 s`);
      }
    },
    async openTab(address) {
      await extensionPage();
      const page = await browser.newPage();
      await page.goto(address, { waitUntil: 'load' });
      await page.bringToFront();
      const tabId = await frontTabId(browser);
      webPages.set(tabId, page);
      return tabId;
    },
    badge: (tabId) => inExtensionPage((id) => chrome.action.getBadgeText({ tabId: id }), tabId),
    runCommand: (name) => runExtensionCommand(browser, GECKO_ID, name),
    async chooseFromContextMenu(tabId, target, item) {
      const page = webPages.get(tabId);
      if (!page) throw new Error(`tab ${tabId} was not opened by openTab`);
      await page.bringToFront();
      await page.evaluate(placeTarget, target);
      await page.click('#shelf-menu-target', { button: 'right' });
      await chooseContextMenuItem(browser, item.title);
    },
    unloadBackground: () => unloadBackground(browser, GECKO_ID),
    typeInOmnibox: (text, waitMs) => typeInOmnibox(browser, GECKO_ID, text, waitMs),
    enterInOmnibox: (content, disposition) => enterInOmnibox(browser, GECKO_ID, content, disposition),
    // Recorded where Firefox shows them (its alerts service), not in the event page, which Firefox unloads when idle.
    recordNotifications: () => recordAlerts(browser),
    notifications: () => recordedAlerts(browser),
    async downloads() {
      const paths = await downloadedPaths(browser);
      return paths.map((path) => ({ fileName: basename(path), text: readFileSync(path, 'utf8') }));
    },
    async close() {
      await browser.uninstallExtension(GECKO_ID).catch(() => undefined);
      removeDir(extensionDir);
      await release();
    },
  };
}
