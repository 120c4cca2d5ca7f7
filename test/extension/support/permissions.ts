import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

/**
 * The browser's optional host permissions as a set: what the user grants when asked (`answer`), and
 * what Shelf gives back. fakeBrowser implements neither permissions nor context menus.
 */
export function fakePermissions(held: string[], answer: boolean) {
  const granted = new Set(held);
  const has = ({ origins = [] }: { origins?: string[] }) => origins.every((o) => granted.has(o));
  vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async (wanted) => has(wanted));
  vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async (wanted) => {
    if (answer) for (const o of wanted.origins ?? []) granted.add(o);
    return has(wanted);
  });
  const remove = vi.spyOn(fakeBrowser.permissions, 'remove').mockImplementation(async ({ origins = [] }) => {
    for (const o of origins) granted.delete(o);
    return true;
  });
  vi.spyOn(fakeBrowser.permissions, 'getAll').mockImplementation(async () => ({ permissions: [], origins: [...granted] }));
  // fakeBrowser has no permission events: the page re-reads after its own changes.
  vi.spyOn(fakeBrowser.permissions.onAdded, 'addListener').mockImplementation(() => undefined);
  vi.spyOn(fakeBrowser.permissions.onAdded, 'removeListener').mockImplementation(() => undefined);
  vi.spyOn(fakeBrowser.permissions.onRemoved, 'addListener').mockImplementation(() => undefined);
  vi.spyOn(fakeBrowser.permissions.onRemoved, 'removeListener').mockImplementation(() => undefined);
  return { granted, remove };
}

