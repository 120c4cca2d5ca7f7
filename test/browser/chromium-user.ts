import type { Page } from 'playwright-core';
import type { ExtensionUser, Role, UserPage } from '../scenarios/user.ts';
import { type ExtensionBrowser, launchExtension } from './support.ts';

/** test/scenarios' user over Playwright, in the Chromium that launchExtension starts. */
export function chromiumPage(page: Page): UserPage {
  const find = (role: Role, name?: string) => page.getByRole(role, name === undefined ? {} : { name, exact: true });
  return {
    click: (role, name) => find(role, name).click(),
    fill: (label, text) => page.getByLabel(label, { exact: true }).fill(text),
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
    async reload() {
      await page.reload();
    },
    // Arguments cross as JSON: the serializable type the scenarios pass is the type the page gets.
    evaluate: <A, R>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown),
    close: () => page.close(),
  };
}

/** Chromium with the built extension, as a user of the scenarios. */
export async function launchChromiumUser(): Promise<ExtensionUser & { extension: ExtensionBrowser }> {
  const extension = await launchExtension();
  return {
    browserName: 'chromium',
    extension,
    async open(path) {
      const page = await extension.context.newPage();
      await page.goto(extension.url(path));
      return chromiumPage(page);
    },
    close: () => extension.close(),
  };
}
