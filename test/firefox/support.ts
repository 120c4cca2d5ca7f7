import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import type { ExtensionUser, Role, UserPage } from '../scenarios/user.ts';
import { buildDirOf, copyCompleteBuild, removeDir, tempDir } from '../browser/support.ts';

/**
 * The built Firefox extension (.output/firefox-mv3) in real Firefox ESR, driven over WebDriver BiDi by
 * puppeteer-core (no geckodriver, no browser download).
 */

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const GECKO_ID = 'shelf@bookmark-library.local';

/** Opens a moz-extension:// page in a new tab. */
async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  // Firefox may never report an extension page's load over BiDi: wait for the document instead.
  void page.goto(url, { waitUntil: 'domcontentloaded' }).catch(() => undefined);
  // An evaluation made while the document is replaced may fail with a protocol error: ask again until the deadline.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const loaded = await page.evaluate((target) => location.href === target && document.readyState !== 'loading', url).catch(() => false);
    if (loaded) return page;
    if (Date.now() > deadline) throw new Error(`${url} did not load within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** test/scenarios' user over Puppeteer: elements found by ARIA role and exact name (its `::-p-aria` selector). */
async function firefoxPage(browser: Browser, url: string): Promise<UserPage> {
  let page = await openPage(browser, url);
  const selector = (role: Role, name?: string) => `::-p-aria(${name ?? ''}[role="${role}"])`;
  return {
    click: (role, name) => page.locator(selector(role, name)).click(),
    async fill(label, text) {
      // The control of the <label> with that text: a password field has no role to find it by.
      const found = await page.waitForFunction(
        (wanted) => [...document.querySelectorAll('label')].find((node) => node.textContent?.trim() === wanted)?.control ?? null,
        { timeout: 10_000 },
        label,
      );
      const field = found.asElement() as ElementHandle<HTMLInputElement>;
      await field.evaluate((input) => input.select());
      await field.type(text);
    },
    async waitFor(role, name, options = {}) {
      await page.waitForSelector(selector(role, name), { [options.gone ? 'hidden' : 'visible']: true, timeout: options.timeoutMs ?? 10_000 });
    },
    async textOf(role, name) {
      const element = await page.waitForSelector(selector(role, name), { timeout: 10_000 });
      return (await element!.evaluate((node) => node.textContent)) ?? '';
    },
    count: async (role, name) => (await page.$$(selector(role, name))).length,
    async reload() {
      // A reloaded moz-extension:// page leaves Puppeteer's frame detached over BiDi: the same page afresh in a new tab.
      const old = page;
      page = await openPage(browser, url);
      await old.close();
    },
    // Arguments cross as JSON: the serializable type the scenarios pass is the type the page gets.
    evaluate: <A, R>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown) as Promise<R>,
    close: () => page.close(),
  };
}

export interface FirefoxUser extends ExtensionUser {
  browser: Browser;
  /** moz-extension://<uuid>/<path> */
  url(path: string): string;
}

/**
 * Headless Firefox ESR with a private copy of the Firefox build installed as a temporary add-on, at a fixed
 * moz-extension:// origin. Permission requests made during a click are answered yes
 * (extensions.webextOptionalPermissionPrompts off: the stand-in for the user's answer; it grants nothing by itself).
 */
export async function launchFirefoxUser(): Promise<FirefoxUser> {
  const root = tempDir('shelf-firefox-');
  const extensionDir = join(root, 'extension');
  const uuid = randomUUID();
  let browser: Browser;
  try {
    await copyCompleteBuild(extensionDir, buildDirOf('firefox'));
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      // WebDriver may navigate to moz-extension:// pages only with system access (so in Firefox 153 ESR).
      args: ['--remote-allow-system-access'],
      extraPrefsFirefox: {
        'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
        'extensions.webextOptionalPermissionPrompts': false,
      },
    });
    await browser.installExtension(extensionDir);
  } catch (err) {
    removeDir(root);
    throw err;
  }
  const url = (path: string) => `moz-extension://${uuid}/${path}`;
  return {
    browserName: 'firefox',
    browser,
    url,
    open: (path) => firefoxPage(browser, url(path)),
    async close() {
      await browser.close();
      removeDir(root);
    },
  };
}
