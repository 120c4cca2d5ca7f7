import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { UserPage } from '../scenarios/user.ts';

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

const RULES = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const lines = (found: AxeViolation[]) => found.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);

/** Run in the page: colours that change with a transition (a colour scheme switched) have changed once it resolves. */
const endOfTransitions = () =>
  // getAnimations flushes the styles first, so a transition the switch just started is among them.
  Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished)).then(() => undefined);

/** Waits until the page's colour transitions have ended: a scan then sees the colours as they are. */
export const transitionsEnded = (page: Page): Promise<void> => page.evaluate(endOfTransitions);
export const userPageTransitionsEnded = (page: UserPage): Promise<void> => page.evaluate(endOfTransitions, undefined);

/** axe-core's WCAG 2.0/2.1 A and AA rules over the page as it is, each violation as one line naming its nodes. */
export async function violations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the extension's CSP refuses an inline <script> (addScriptTag). Once a document.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  return lines(await page.evaluate(async (rules) => (await axe.run(document, { runOnly: rules })).violations, RULES));
}

/** The same over a scenario's page (Firefox: evaluated over WebDriver BiDi, which the page's CSP does not govern either). */
export async function userPageViolations(page: UserPage): Promise<string[]> {
  // A function whose body is axe-core's source: the evaluation sends its text, run as the page's own script. Once a document.
  if (!(await page.evaluate(() => 'axe' in globalThis, undefined))) await page.evaluate(new Function(AXE_SOURCE) as () => void, undefined);
  return lines(await page.evaluate(async (rules) => (await axe.run(document, { runOnly: rules })).violations, RULES));
}
