import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { hostPatterns } from '../../lib/client/host-patterns.ts';
import { PNG_SIGNATURE, SVG, png } from '../support/images.ts';
import { type ShelfProcess, type Site, dataOf, requestFromTests, startShelf, startSite } from '../browser/support.ts';
import { forwardFrom127002 } from './other-origin.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, Notification, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: typeof Browser;

const SET_COVER = { id: 'shelf-set-cover', title: 'Set as cover image' };
const PNG = png(160, 90);
const page = (title: string, body: string) => ({ type: 'text/html; charset=utf-8', body: `<!doctype html><title>${title}</title><body>${body}</body>` });

/**
 * The context menu's Set as cover image: right-click an image of a page, choose the item, and the page's
 * bookmark (saved first when it is not yet) gets the image as its cover, converted to PNG where the API would
 * refuse it (in Chromium's offscreen document, in Firefox's event page, which has a DOM), with a notification
 * saying how it went. One description of the user's steps, run in Chromium (test/browser/cover.test.ts) and
 * Firefox (test/firefox/cover.test.ts).
 */
export function coverScenarios(launch: () => Promise<ExtensionUser>, options: { answersPrompts: boolean }): void {
  describe('set as cover image, from the context menu', () => {
    let shelf: ShelfProcess;
    let site: Site;
    let elsewhere: Awaited<ReturnType<typeof forwardFrom127002>>;
    let user: ExtensionUser;
    let settings: UserPage;
    let db: Database.Database;

    beforeAll(async () => {
      [shelf, site, user] = await Promise.all([
        startShelf(),
        startSite(
          {},
          {
            '/article': page('An article with a picture', '<img src="/cover.png" alt="picture">'),
            '/drawing': page('A drawing', '<img src="/drawing.svg" alt="drawing">'),
            '/huge': page('A huge picture', '<img src="/huge.png" alt="huge">'),
            '/blob': page(
              'A picture made in the page',
              `<img alt="made here"><script>fetch('/cover.png').then((r) => r.blob()).then((b) => { document.querySelector('img').src = URL.createObjectURL(b); });</script>`,
            ),
            '/free': page('Free plan page', '<img src="/cover.png" alt="picture">'),
            '/cover.png': { type: 'image/png', body: PNG },
            '/drawing.svg': { type: 'image/svg+xml', body: SVG },
            '/huge.png': { type: 'image/png', body: new Uint8Array(12 * 1024 * 1024).fill(9) },
            '/broken': page('A broken picture', '<img src="/broken.avif" alt="broken">'),
            '/broken.avif': { type: 'image/avif', body: 'not really an AVIF file' },
            '/elsewhere': page('A picture from elsewhere', ''),
            '/elsewhere-kept': page('A picture from elsewhere, its site kept', ''),
            '/elsewhere-again': page('Another picture from elsewhere', ''),
          },
        ),
        launch(),
      ]);
      elsewhere = await forwardFrom127002(site.origin);
      db = new Database(join(shelf.dataDir, 'shelf.db'), { readonly: true });
      settings = await signIn(user, shelf);
      await user.recordNotifications();
    });

    afterAll(async () => {
      db?.close();
      await Promise.all([user?.close(), shelf?.stop(), site?.close(), elsewhere?.close()]);
    });

    const bookmarkAt = async (url: string): Promise<Bookmark | undefined> =>
      dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.find((b) => b.url === url);
    const reservations = () => (db.prepare(`SELECT COUNT(*) AS n FROM upload_reservations WHERE kind = 'cover'`).get() as { n: number }).n;

    /** Right-clicks the image in the page of that path (opened in a new tab) and chooses Set as cover image; answers the notification it brings and the tab. */
    async function setAsCover(path: string, image: string | ((tabId: number) => Promise<string>)): Promise<{ note: Notification; tabId: number }> {
      const tabId = await user.openTab(site.url(path));
      const src = typeof image === 'string' ? image : await image(tabId);
      const before = (await user.notifications()).length;
      await user.chooseFromContextMenu(tabId, { image: src }, SET_COVER);
      await expect.poll(async () => (await user.notifications()).length, { timeout: 15_000 }).toBeGreaterThan(before);
      return { note: (await user.notifications())[before]!, tabId };
    }

    /** Whether the extension holds access to these origins now (asked in its own page). */
    const holds = (origins: string[]) => settings.evaluate((wanted) => chrome.permissions.contains({ origins: wanted }), origins);

    /**
     * From now on, the origins the browser grants the extension and takes back (its permissions events, heard in the
     * options page the test holds, which outlives the background); answers a reader of what was heard so far.
     */
    async function watchPermissions(): Promise<() => Promise<{ added: string[]; removed: string[] }>> {
      type Heard = { added: string[]; removed: string[] };
      await settings.evaluate(() => {
        const heard: Heard = ((window as unknown as { shelfPermissions: Heard }).shelfPermissions = { added: [], removed: [] });
        chrome.permissions.onAdded.addListener((granted) => heard.added.push(...(granted.origins ?? [])));
        chrome.permissions.onRemoved.addListener((taken) => heard.removed.push(...(taken.origins ?? [])));
      }, undefined);
      return () => settings.evaluate(() => (window as unknown as { shelfPermissions: Heard }).shelfPermissions, undefined);
    }

    async function coverBytes(bookmark: Bookmark | undefined): Promise<Uint8Array> {
      expect(bookmark?.coverImage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storage\/files\/fil_/);
      const res = await requestFromTests(bookmark!.coverImage!);
      expect(res.status).toBe(200);
      return new Uint8Array(res.bytes);
    }

    it('sets the PNG as the cover of the page’s bookmark, byte for byte; the popup shows it and removes it', async () => {
      const saved = dataOf<Bookmark>(await shelf.api('POST', '/bookmarks', { url: site.url('/article'), title: 'An article with a picture' }));

      const { note, tabId } = await setAsCover('/article', site.url('/cover.png'));

      expect(note).toEqual({ title: 'Cover set', message: 'An article with a picture' });
      const bookmark = await bookmarkAt(site.url('/article'));
      expect(bookmark?.id).toBe(saved.id);
      expect(await coverBytes(bookmark)).toEqual(PNG);

      const popup = await user.open(`popup.html?tabId=${tabId}`);
      await popup.waitFor('img', 'Cover');
      // Loaded from the server's origin: the extension pages' CSP lets it show.
      await expect
        .poll(() => popup.evaluate(() => [...document.querySelectorAll('img')].find((img) => img.alt === 'Cover')?.naturalWidth ?? 0, undefined))
        .toBe(160);
      await popup.click('button', 'Remove cover');
      await expect.poll(() => popup.textOf('status'), { timeout: 10_000 }).toContain('Cover removed');
      expect((await bookmarkAt(site.url('/article')))?.coverImage).toBeNull();
      await popup.close();
    });

    it('saves a page that is not saved yet, with an SVG converted to PNG as its cover, and shows ✓', async () => {
      const { note, tabId } = await setAsCover('/drawing', site.url('/drawing.svg'));

      expect(note).toEqual({ title: 'Page saved, with its cover', message: 'A drawing' });
      const bytes = await coverBytes(await bookmarkAt(site.url('/drawing')));
      expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      // IHDR: the drawing's own size, 120 × 80.
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      expect([view.getUint32(16), view.getUint32(20)]).toEqual([120, 80]);
      await expect.poll(() => user.badge(tabId), { timeout: 10_000 }).toBe('✓');
    });

    it('reads a blob: image in its page', async () => {
      const blobUrl = async (tabId: number) => {
        // The page makes its blob: URL once its fetch is done: read it from the page as it shows the image.
        const [found] = await settings.evaluate(
          async (id) => {
            for (;;) {
              const [shown] = await chrome.scripting.executeScript({ target: { tabId: id }, func: () => document.querySelector('img')?.src ?? '' });
              if (shown?.result?.startsWith('blob:')) return [shown.result];
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
          },
          tabId,
        );
        return found!;
      };
      const { note } = await setAsCover('/blob', blobUrl);

      expect(note).toMatchObject({ title: 'Page saved, with its cover' });
      expect(await coverBytes(await bookmarkAt(site.url('/blob')))).toEqual(PNG);
    });

    it('refuses a 12 MB image in words, with nothing saved and no upload reserved', async () => {
      const reserved = reservations();

      const { note } = await setAsCover('/huge', site.url('/huge.png'));

      expect(note).toEqual({ title: 'Cover not set: That image is larger than 10 MB.', message: 'Choose a smaller image.' });
      expect(await bookmarkAt(site.url('/huge'))).toBeUndefined();
      expect(reservations()).toBe(reserved);
    });

    it('refuses in words an image that cannot be converted, and leaves no offscreen document open', async () => {
      const { note } = await setAsCover('/broken', site.url('/broken.avif'));

      expect(note).toEqual({
        title: 'Cover not set: Shelf cannot use that image as a cover.',
        message: 'Shelf could not convert this AVIF image to PNG; choose a JPEG, PNG, GIF or WebP image.',
      });
      expect(await bookmarkAt(site.url('/broken'))).toBeUndefined();
      // Chromium's offscreen document is closed after its one conversion (Firefox converts in its event page: none).
      const contexts = await settings.evaluate(() => chrome.runtime.getContexts({}), undefined);
      expect(contexts.filter((context) => context.contextType === 'OFFSCREEN_DOCUMENT')).toEqual([]);
    });

    if (options.answersPrompts) {
      // Firefox: the real menu click is a gesture, its permission prompt is answered yes for the user.
      it('asks during the click for the image’s site, sets the cover, and gives the access back after', async () => {
        const image = `${elsewhere.origin}/cover.png`;
        // What Shelf asks for and Firefox grants: the host on any port (a pattern with the port, Firefox would say it
        // holds and let no request through under it).
        const pattern = hostPatterns(elsewhere.origin).anyPort;
        expect(await holds([pattern])).toBe(false);
        const heard = await watchPermissions();

        const { note } = await setAsCover('/elsewhere', image);

        expect(note).toEqual({ title: 'Page saved, with its cover', message: 'A picture from elsewhere' });
        expect(await coverBytes(await bookmarkAt(site.url('/elsewhere')))).toEqual(PNG);
        await expect.poll(heard, { timeout: 10_000 }).toEqual({ added: [pattern], removed: [pattern] });
        expect(await holds([pattern])).toBe(false);
      });
    } else {
      // Chromium: the menu click is dispatched to the worker, with no gesture, and headless Chromium's prompt has no one to answer it.
      it('says so when it may not read the image’s site (a permission not granted, and no click to ask during)', async () => {
        const image = `${elsewhere.origin}/cover.png`;

        const { note } = await setAsCover('/elsewhere', image);

        expect(note).toEqual({
          title: 'Cover not set: Shelf could not read that image.',
          message: `Shelf may not read images from ${elsewhere.origin}; allow it when your browser asks.`,
        });
        expect(await bookmarkAt(site.url('/elsewhere'))).toBeUndefined();
      });
    }

    it('asks again from the next click for an image’s site whose access was revoked: granted, the cover is set (Firefox); unanswered, the refusal is told (Chromium)', async () => {
      const image = `${elsewhere.origin}/cover.png`;
      const pattern = hostPatterns(elsewhere.origin).anyPort;
      // The options page's Site access lists the site as the host the pattern names, with its Remove button.
      const removeSite = `Remove ${new URL(pattern.replace(/\/\*$/, '/')).origin}`;
      const keep = async (on: boolean) => {
        await settings.clickStartingWith('checkbox', 'Keep access to an image’s site');
        await expect.poll(() => settings.evaluate(() => chrome.storage.local.get('keepCoverSiteAccess'), undefined), { timeout: 10_000 }).toEqual({ keepCoverSiteAccess: on });
      };
      await settings.click('link', 'Site access');
      await settings.waitFor('heading', 'Site access');
      await keep(true);
      if (options.answersPrompts) {
        // The access is kept after a cover: the user sees the site in Site access.
        const { note } = await setAsCover('/elsewhere-kept', image);
        expect(note).toEqual({ title: 'Page saved, with its cover', message: 'A picture from elsewhere, its site kept' });
        expect(await holds([pattern])).toBe(true);
        await settings.waitFor('button', removeSite);
      }
      // Revoked as about:addons → Permissions does; the page shows the site gone.
      await settings.evaluate((origins) => chrome.permissions.remove({ origins }), [pattern]);
      expect(await holds([pattern])).toBe(false);
      await settings.waitFor('button', removeSite, { gone: true });
      const heard = await watchPermissions();

      if (options.answersPrompts) {
        // Revoking in about:addons takes the user longer than an idle event page lives: Firefox has unloaded it,
        // and the click on the menu item starts it again.
        await user.unloadBackground();
        const { note } = await setAsCover('/elsewhere-again', image);

        expect(note).toEqual({ title: 'Page saved, with its cover', message: 'Another picture from elsewhere' });
        expect(await coverBytes(await bookmarkAt(site.url('/elsewhere-again')))).toEqual(PNG);
        // Asked during the click, granted, and kept as chosen: listed again.
        expect(await heard()).toEqual({ added: [pattern], removed: [] });
        expect(await holds([pattern])).toBe(true);
        await settings.waitFor('button', removeSite);
        // Nothing told the user to answer a prompt that never came.
        expect((await user.notifications()).filter((shown) => shown.message.includes('browser asks'))).toEqual([]);
        await settings.click('button', removeSite);
        await settings.waitFor('button', removeSite, { gone: true });
      } else {
        // Chromium: the test's menu click reaches the worker with no gesture to ask during (and headless Chromium
        // shows its prompt to no one): the refusal is told in words, and nothing is saved or granted.
        const { note } = await setAsCover('/elsewhere-again', image);

        expect(note).toEqual({
          title: 'Cover not set: Shelf could not read that image.',
          message: `Shelf may not read images from ${elsewhere.origin}; allow it when your browser asks.`,
        });
        expect(await bookmarkAt(site.url('/elsewhere-again'))).toBeUndefined();
        expect(await heard()).toEqual({ added: [], removed: [] });
      }
      await keep(false);
      // Some 20 s at load 9: two covers, the event page's unload and start, and the options page's updates.
    }, 60_000);

    // Last: the account stays on the free plan (moving it back would cost another admin process), where the API
    // answers it nothing: what was saved is read from the server's database.
    it('tells a free-plan account that covers need Pro, before any upload', async () => {
      await shelf.admin('user', 'plan', '--user', shelf.userId, '--plan', 'free');
      const reserved = reservations();

      const { note } = await setAsCover('/free', site.url('/cover.png'));

      expect(note).toEqual({
        title: 'Cover not set: Cover images need the Pro plan.',
        message: 'Nothing was uploaded. Upgrade the account to Pro to set covers.',
      });
      expect(reservations()).toBe(reserved);
      expect(db.prepare('SELECT COUNT(*) AS n FROM bookmarks WHERE url = ?').get(site.url('/free'))).toEqual({ n: 0 });
    });
  });
}
