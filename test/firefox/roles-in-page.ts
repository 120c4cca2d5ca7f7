import { queryAllByRole } from '@testing-library/dom';
import type { Role } from '../scenarios/user.ts';

/**
 * Finding elements by ARIA role and accessible name inside a Firefox page, as testing-library's ByRole queries find
 * them (the same rules as the component tests'; Playwright's getByRole in Chromium is also computed in the page).
 * Bundled by the global setup and put into each page the first time a test looks for something there. Puppeteer's
 * own `::-p-aria` query asks Firefox's accessibility tree over WebDriver BiDi: 300-1,000 ms a query, where this is
 * 5-30 ms, and a Firefox test file makes dozens of them.
 */

export interface RoleQuery {
  role: Role;
  /** The exact accessible name; with neither this nor nameStart, any. */
  name?: string;
  nameStart?: string;
  /** Looked for inside the first element with this role and exact name. */
  within?: readonly [Role, string];
}

/** What a query waits for: any such element, one the user can see, one the user can click, or none the user can see. */
export type Wanted = 'present' | 'visible' | 'actionable' | 'gone';

const shown = (element: Element) => element.getClientRects().length > 0;
// Puppeteer's locators waited for a form control to be enabled before clicking it: the same here.
const enabled = (element: Element) => !(element as HTMLButtonElement).disabled;

function findAll({ role, name, nameStart, within }: RoleQuery): HTMLElement[] {
  const scope = within ? queryAllByRole(document.body, within[0], { name: within[1] })[0] : document.body;
  if (!scope) return [];
  const named = name ?? (nameStart === undefined ? undefined : (found: string) => found.startsWith(nameStart));
  return queryAllByRole(scope, role, named === undefined ? {} : { name: named });
}

/** For a wait: the first element as wanted (null until there is one), or for `gone`, whether none is shown. */
export function find(query: RoleQuery, wanted: Wanted): HTMLElement | boolean | null {
  const found = findAll(query);
  if (wanted === 'gone') return !found.some(shown);
  const first = found[0];
  if (!first || (wanted !== 'present' && !shown(first)) || (wanted === 'actionable' && !enabled(first))) return null;
  return first;
}

export const count = (query: RoleQuery): number => findAll(query).length;

export const texts = (query: RoleQuery): string[] => findAll(query).map((element) => element.textContent ?? '');
