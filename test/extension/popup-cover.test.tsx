// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import { closeDom } from './support/dom.ts';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setRuntime } from '../../components/messenger.ts';
import { App } from '../../entrypoints/popup/App.tsx';
import { startPopup } from '../../entrypoints/popup/startup.ts';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { dataOf } from '../support/expect.ts';
import { png } from '../support/images.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';

const MINUTE = 60_000;
const PAGE = 'https://example.com/with-a-cover';
const PNG_DATA_URL = `data:image/png;base64,${Buffer.from(png(32, 20)).toString('base64')}`;

let t: TestServer;
let bg: TestBackground;
let u: TestUser;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  await closeDom();
});

beforeEach(async () => {
  fakeBrowser.reset();
  bg = createTestBackground();
  setRuntime(bg.runtime);
  u = await t.user();
  await t.advance(2 * MINUTE);
  vi.spyOn(t.server.deps, 'fetchMetadata').mockResolvedValue({
    title: 'A page',
    description: '',
    excerpt: '',
    favicon: '',
    type: 'link',
    httpStatus: 200,
    linkStatus: 'ok',
    fetched: true,
  });
  await bg.services.account.signIn(t.baseUrl, u.token);
  await bg.idle();
});
afterEach(async () => {
  cleanup();
  await bg.idle();
  vi.restoreAllMocks();
});

async function openPopupOn(url: string): Promise<void> {
  const tab = await fakeBrowser.tabs.create({ url });
  render(<App startup={startPopup({ tabId: tab.id! })} />);
  await screen.findByRole('heading', { name: 'Saved in Shelf' });
}

const bookmarkOnServer = async (id: string) => dataOf(await u.api('GET', `/bookmarks/${id}`), Bookmark);

describe('the popup and a saved page’s cover', () => {
  it('shows the cover with Remove cover, which removes it on the server', async () => {
    // A page not saved yet is saved by its cover (the image here is a data: one, as a page may have).
    const { bookmark, url } = await bg.services.covers.set({ srcUrl: PNG_DATA_URL, pageUrl: PAGE });
    await openPopupOn(PAGE);

    const image = await screen.findByRole<HTMLImageElement>('img', { name: 'Cover' });
    expect(image.src).toBe(url);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove cover' }));

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('✓ Cover removed'));
    expect(screen.queryByRole('img', { name: 'Cover' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove cover' })).toBeNull();
    expect((await bookmarkOnServer(bookmark.id)).coverImage).toBeNull();
  });

  it('says why a removal failed and keeps showing the cover', async () => {
    const { bookmark } = await bg.services.covers.set({ srcUrl: PNG_DATA_URL, pageUrl: PAGE });
    await openPopupOn(PAGE);
    await screen.findByRole('img', { name: 'Cover' });
    // Trashed elsewhere meanwhile: the server no longer changes its cover.
    expect((await u.api('DELETE', `/bookmarks/${bookmark.id}`)).status).toBe(200);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove cover' }));

    expect((await screen.findByRole('alert')).textContent).toContain('That item no longer exists.');
    expect(screen.getByRole('img', { name: 'Cover' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove cover' })).toHaveProperty('disabled', false);
  });

  it('shows no cover controls for a saved page without a cover', async () => {
    dataOf(await u.api('POST', '/bookmarks', { body: { url: PAGE } }), Bookmark, 201);
    await bg.services.index.sync();
    await openPopupOn(PAGE);
    expect(screen.queryByRole('img', { name: 'Cover' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove cover' })).toBeNull();
  });
});
