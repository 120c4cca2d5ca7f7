import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShelfProcess, type Site, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, SuggestCall, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: {
  tabs: {
    query(query: { active?: true; lastFocusedWindow?: true }): Promise<Array<{ id?: number; url?: string; pendingUrl?: string }>>;
    get(id: number): Promise<{ url?: string; pendingUrl?: string }>;
  };
};

/**
 * The address bar's `sh` keyword (issue 20), against the real server: one description of the user's steps, run in
 * Chromium (test/browser/omnibox.test.ts) and Firefox (test/firefox/library-omnibox.test.ts).
 */
export function omniboxScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('the address bar’s sh keyword', () => {
    let shelf: ShelfProcess;
    let user: ExtensionUser;
    let site: Site;
    /** An extension page, where the extension API tells what the tabs show. */
    let options: UserPage;

    beforeAll(async () => {
      [shelf, user, site] = await Promise.all([startShelf(), launch(), startSite({ '/moss-lawns': 'Moss lawns', '/ferns': 'Fern corner', '/velvet': 'Velvet' })]);
      const save = (url: string, title: string) => shelf.api('POST', '/bookmarks', { url, title, description: 'd' });
      await save(site.url('/moss-lawns'), 'Moss lawns');
      await save(site.url('/ferns'), 'Fern corner');
      // "moss" is in its title only: the local index (URLs) cannot find it, the API's search does.
      await save(site.url('/velvet'), 'Velvet moss guide');
      options = await signIn(user, shelf);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
    });

    const contents = (call: SuggestCall | undefined) => call?.suggestions.map((s) => s.content) ?? [];
    // A tab being loaded shows its pending address in Chromium.
    const tabUrls = () => options.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.pendingUrl ?? t.url), undefined);

    it('suggests the saved pages for "sh moss" from the local index at once, then the API’s matches; Enter opens the bookmark', { timeout: 120_000 }, async () => {
      // The sign-in's index sync fills the local index in the background: typed again until it has.
      let calls = await user.typeInOmnibox('moss', 1_500);
      for (let tries = 0; tries < 20 && !contents(calls[0]).some((c) => c.endsWith('/moss-lawns')); tries++) calls = await user.typeInOmnibox('moss', 1_500);

      // First the local index's match (its comparison key, shown as an address), then the search's, with titles.
      expect(contents(calls[0])).toEqual([`https://${site.url('/moss-lawns').replace('http://', '')}`]);
      expect(calls).toHaveLength(2);
      expect(calls[1]!.at).toBeGreaterThanOrEqual(300);
      expect(contents(calls[1]).sort()).toEqual([site.url('/moss-lawns'), site.url('/velvet')].sort());
      expect(calls[1]!.suggestions.find((s) => s.content === site.url('/velvet'))?.description).toBe(`Velvet moss guide — ${site.url('/velvet')}`);

      // Enter on the local suggestion opens the bookmark's own address (http here), not the index's key.
      expect(await tabUrls()).not.toContain(site.url('/moss-lawns'));
      await user.enterInOmnibox(contents(calls[0])[0]!, 'newForegroundTab');
      await expect.poll(tabUrls, { timeout: 10_000 }).toContain(site.url('/moss-lawns'));

      // Enter on the search's suggestion, in the current tab.
      const tabId = await user.openTab(site.url('/ferns'));
      const frontTab = () => options.evaluate(async () => (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id, undefined);
      await expect.poll(frontTab, { timeout: 10_000 }).toBe(tabId);
      await user.enterInOmnibox(site.url('/velvet'), 'currentTab');
      await expect.poll(() => options.evaluate(async (id) => (await chrome.tabs.get(id)).url, tabId), { timeout: 10_000 }).toBe(site.url('/velvet'));
    });

    it('keeps the index’s search text; a background started afresh whose kept text is corrupt, lost (as an earlier version had none), or kept without its ids, builds it again from the index', { timeout: 120_000 }, async () => {
      const mossKey = `https://${site.url('/moss-lawns').replace('http://', '')}`;
      const afresh = async () => {
        await user.unloadBackground();
        return contents((await user.typeInOmnibox('moss', 1_500))[0]);
      };
      // Kept once the sign-in's index sync has settled.
      await expect.poll(() => options.evaluate(keptSearchText, 'read'), { timeout: 10_000 }).toContain('moss-lawns');

      for (const spoilt of ['corrupt', 'delete', 'lose ids'] as const) {
        await options.evaluate(keptSearchText, spoilt);
        expect(await afresh(), spoilt).toEqual([mossKey]);
        expect(await options.evaluate(keptSearchText, 'read'), spoilt).toContain('moss-lawns');
      }
    });

    it('suggests nothing for words no bookmark holds, and Enter on them opens nothing', { timeout: 60_000 }, async () => {
      const before = (await tabUrls()).length;
      const calls = await user.typeInOmnibox('zzqx', 1_000);
      expect(calls.map(contents)).toEqual([[], []]);
      await user.enterInOmnibox('zzqx', 'newForegroundTab');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await tabUrls()).toHaveLength(before);
    });
  });
}

/**
 * Runs in an extension page (the background's origin, so its IndexedDB): reads the kept search text (its keys, where
 * its ids are kept too), replaces its keys with lines of no form, deletes it as an earlier version would have had
 * none, or deletes its ids alone.
 */
async function keptSearchText(action: 'read' | 'corrupt' | 'delete' | 'lose ids'): Promise<string | null> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('shelf-index', 1);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const store = db.transaction('searchText', action === 'read' ? 'readonly' : 'readwrite').objectStore('searchText');
  const done = (req: IDBRequest) =>
    new Promise<unknown>((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  const [keys, ids] = await Promise.all(
    action === 'read'
      ? [done(store.get('keys')), done(store.get('ids'))]
      : action === 'corrupt'
        ? [done(store.put({ version: 2, keys: 'moss\tno line\tof the form' }, 'keys'))]
        : [...(action === 'delete' ? [done(store.delete('keys'))] : []), done(store.delete('ids'))],
  );
  db.close();
  const text = (keys as { keys?: string } | undefined)?.keys;
  return action === 'read' && text !== undefined && typeof (ids as { ids?: string } | undefined)?.ids === 'string' ? text : null;
}
