// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import { closeDom } from './support/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { setRuntime } from '../../components/messenger.ts';
import { SiteAccessSection } from '../../components/options/site-access/SiteAccessSection.tsx';
import { keepCoverSiteAccessItem } from '../../lib/storage/items.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';
import { fakePermissions } from './support/permissions.ts';

let bg: TestBackground;

afterAll(async () => {
  await closeDom();
});
beforeEach(() => {
  fakeBrowser.reset();
  bg = createTestBackground();
  setRuntime(bg.runtime);
});
afterEach(async () => {
  cleanup();
  await bg.idle();
  vi.restoreAllMocks();
});

function show(): void {
  render(
    <QueryClientProvider client={libraryQueryClient()}>
      <SiteAccessSection />
    </QueryClientProvider>,
  );
}

const siteList = () => screen.findByRole('list', { name: 'Sites Shelf may read' });

describe('options: site access', () => {
  it('lists the sites granted beyond this computer, each with Remove, which gives the access back', async () => {
    const { granted, remove } = fakePermissions(['http://127.0.0.1/*', 'http://localhost/*', 'https://images.example/*', 'https://photos.example/*'], true);
    show();
    const list = await siteList();
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['https://images.exampleRemove', 'https://photos.exampleRemove']);
    await userEvent.click(within(list).getByRole('button', { name: 'Remove https://images.example' }));
    expect(remove).toHaveBeenCalledExactlyOnceWith({ origins: ['https://images.example/*'] });
    await waitFor(() => expect(within(list).queryByRole('button', { name: 'Remove https://images.example' })).toBeNull());
    expect([...granted]).toEqual(['http://127.0.0.1/*', 'http://localhost/*', 'https://photos.example/*']);
  });

  it('offers no Remove for the signed-in server’s site: signing out comes first', async () => {
    // A server not on this computer is a site the user granted at sign-in; the account is as the background tells it.
    const server = 'https://bookmarks.example';
    fakePermissions([`${server}/*`, 'https://images.example/*'], true);
    vi.spyOn(bg.services.account, 'state').mockResolvedValue({ serverUrl: `${server}/v1`, signedIn: true, user: null, scopes: null, tokenProblem: null });
    show();
    const list = await siteList();
    await waitFor(() => expect(within(list).getByText('Your server: sign out to remove it')).toBeTruthy());
    expect(within(list).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['Remove https://images.example']);
  });

  it('says when no other site is granted', async () => {
    fakePermissions(['http://127.0.0.1/*', 'http://localhost/*', 'https://*/*'], true);
    show();
    expect(await screen.findByText('No other site.')).toBeTruthy();
  });

  it('keeps the choice to keep an image’s site access after Set as cover image', async () => {
    fakePermissions([], true);
    show();
    const keep = await screen.findByRole<HTMLInputElement>('checkbox', { name: /Keep access to an image’s site after Set as cover image/ });
    await waitFor(() => expect(keep.disabled).toBe(false));
    expect(keep.checked).toBe(false);
    await userEvent.click(keep);
    await waitFor(async () => expect(await keepCoverSiteAccessItem.get()).toBe(true));
    await userEvent.click(keep);
    await waitFor(async () => expect(await keepCoverSiteAccessItem.get()).toBe(false));
  });
});
