import { readFileSync } from 'node:fs';
import type { Download, Page } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import type { ExtensionUser, MenuTarget, Role, UserPage } from '../scenarios/user.ts';
import { enterInOmnibox, typeInOmnibox } from './omnibox-events.ts';
import { type Dispatchable, type ExtensionBrowser, launchExtension, nextOpenedPage, notifications, recordNotifications } from './support.ts';

// The extension API inside functions that run in the worker: not a global of this Node process.
declare const chrome: typeof Browser;

const asPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** test/scenarios' user over Playwright, in the Chromium that launchExtension starts. */
export function chromiumPage(page: Page): UserPage {
  const find = (role: Role, name?: string) => page.getByRole(role, name === undefined ? {} : { name, exact: true });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    click: (role, name, options = {}) => find(role, name).click(options.shift ? { modifiers: ['Shift'] } : {}),
    clickIn: ([outerRole, outerName], role, name) =>
      find(outerRole, outerName)
        .getByRole(role, { name, exact: true })
        .click(),
    clickStartingWith: (role, start) =>
      page
        .getByRole(role, { name: new RegExp(`^${asPattern(start)}`) })
        .first()
        .click(),
    async select(label, option) {
      await page.getByLabel(label, { exact: true }).selectOption({ label: option });
    },
    fill: (label, text) => page.getByLabel(label, { exact: true }).fill(text),
    chooseFile: (label, file) => page.getByLabel(label, { exact: true }).setInputFiles({ name: file.name, mimeType: file.type ?? 'text/plain', buffer: Buffer.from(file.text) }),
    press: (key) => page.keyboard.press(key),
    valueOf: (label) => page.getByLabel(label, { exact: true }).inputValue(),
    isDisabled: (role, name) => find(role, name).isDisabled(),
    isChecked: (role, name) => find(role, name).isChecked(),
    textsIn: ([outerRole, outerName], role) => find(outerRole, outerName).getByRole(role).allTextContents(),
    waitForText: (text, options = {}) =>
      page
        .getByText(text)
        .first()
        .waitFor({ timeout: options.timeoutMs ?? 10_000 }),
    errors: () => [...errors],
    async waitFor(role, name, options = {}) {
      await find(role, name)
        .first()
        .waitFor({ state: options.gone ? 'hidden' : 'visible', timeout: options.timeoutMs ?? 10_000 });
    },
    async textOf(role, name) {
      const element = find(role, name).first();
      await element.waitFor({ timeout: 10_000 });
      return (await element.textContent()) ?? '';
    },
    count: (role, name) => find(role, name).count(),
    attributeOf: (role, name, attribute) => find(role, name).first().getAttribute(attribute, { timeout: 10_000 }),
    dragTo: ([fromRole, fromName], [ontoRole, ontoName]) => find(fromRole, fromName).first().dragTo(find(ontoRole, ontoName).first()),
    async reload() {
      await page.reload();
    },
    // Arguments cross as JSON: the serializable type the scenarios pass is the type the page gets.
    evaluate: <A, R>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown),
    close: () => page.close(),
  };
}

/** What Chromium passes to contextMenus.onClicked for a right-click on that target, less the page's address. */
function clickInfo(target: MenuTarget): Record<string, unknown> {
  if ('link' in target) return { linkUrl: target.link, frameId: 0, editable: false };
  if ('image' in target) return { mediaType: 'image', srcUrl: target.image, frameId: 0, editable: false };
  return { frameId: 0, editable: false };
}

/**
 * Chromium with the built extension, as a user of the scenarios. Headless Chromium opens no context menus and
 * does not route synthetic key presses (CDP) to extension shortcuts: commands and menu choices are the worker's
 * own events, dispatched there, which run the real listeners.
 */
export async function launchChromiumUser(): Promise<ExtensionUser & { extension: ExtensionBrowser }> {
  const extension = await launchExtension();
  const downloads: Download[] = [];
  const recordDownloads = (page: Page) => page.on('download', (download) => downloads.push(download));
  extension.context.pages().forEach(recordDownloads);
  extension.context.on('page', recordDownloads);
  const inWorker = async <A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> =>
    (await extension.worker()).evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown);
  return {
    browserName: 'chromium',
    extension,
    async open(path) {
      const page = await extension.context.newPage();
      const user = chromiumPage(page); // listening for the page's errors from its first script on
      await page.goto(extension.url(path));
      return user;
    },
    async opened(path) {
      return chromiumPage(await nextOpenedPage(extension, new RegExp(`/${asPattern(path)}$`)));
    },
    async openTab(url) {
      const { page, tabId } = await extension.openTab(url);
      await page.bringToFront();
      return tabId;
    },
    badge: (tabId) => extension.badge(tabId),
    runCommand: (name) =>
      inWorker(async (command) => {
        const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
        (chrome.commands.onCommand as unknown as Dispatchable).dispatch(command, tab);
      }, name),
    chooseFromContextMenu: (tabId, target, item) =>
      inWorker(
        async ([id, menuItemId, partial]) => {
          const tab = await chrome.tabs.get(id);
          (chrome.contextMenus.onClicked as unknown as Dispatchable).dispatch({ menuItemId, ...partial, pageUrl: tab.url }, tab);
        },
        [tabId, item.id, clickInfo(target)] as const,
      ),
    async unloadBackground() {
      const { restarted } = await extension.stopWorker();
      restarted.catch(() => undefined); // the scenario waits for what the restarted worker does, not for this
    },
    typeInOmnibox: (text, waitMs) => typeInOmnibox(extension, text, waitMs),
    enterInOmnibox: (content, disposition) => enterInOmnibox(extension, content, disposition),
    recordNotifications: () => recordNotifications(extension),
    notifications: async () => (await notifications(extension)).map(({ title, message }) => ({ title, message })),
    downloads: () =>
      Promise.all(downloads.map(async (download) => ({ fileName: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') }))),
    close: () => extension.close(),
  };
}
