import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { provideServerBundle } from '../support/server-bundle-global.ts';
import { ensureExtensionBuilt } from '../browser/support.ts';
import { bundleRolesInPage, makeProfileTemplate } from './support.ts';

/**
 * The Firefox tests load the built Firefox extension: build it once when it is missing or older than its sources.
 * Each file's Firefox starts from a copy of one profile made here (see makeProfileTemplate), and its pages find
 * elements by role with one script bundled here (roles-in-page.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  ensureExtensionBuilt('firefox');
  const template = mkdtempSync(join(tmpdir(), 'shelf-firefox-profile-'));
  await makeProfileTemplate(template);
  project.provide('firefoxProfileTemplate', template);
  project.provide('firefoxRolesScript', await bundleRolesInPage());
  const removeBundle = await provideServerBundle();
  return () => {
    rmSync(template, { recursive: true, force: true });
    removeBundle();
  };
}
