import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeNode {
  target: unknown[];
}
interface AxeViolation {
  id: string;
  help: string;
  nodes: AxeNode[];
}
declare const axe: { run(context: Document, options: { runOnly: string[] }): Promise<{ violations: AxeViolation[] }> };

/** axe-core's WCAG 2.0/2.1 A and AA rules over the page as it is, each violation as one line naming its nodes. */
export async function violations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the extension's CSP refuses an inline <script> (addScriptTag).
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => (await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] })).violations);
  return found.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
}
