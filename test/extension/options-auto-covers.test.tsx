// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import { closeDom } from './support/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { setRuntime } from '../../components/messenger.ts';
import { AutoCoversSection } from '../../components/options/auto-covers/AutoCoversSection.tsx';
import { autoCoverSettingsItem, autoCoverUsageItem } from '../../lib/storage/auto-cover-items.ts';
import { userItem } from '../../lib/storage/items.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';

let t: TestServer;
let bg: TestBackground;
let u: TestUser;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await closeDom();
  await t.close();
});
beforeEach(async () => {
  fakeBrowser.reset();
  bg = createTestBackground();
  setRuntime(bg.runtime);
  u = await t.user();
  stubPageFetch(t);
  await bg.services.account.signIn(t.baseUrl, u.token);
  await bg.idle();
});
afterEach(async () => {
  cleanup();
  await bg.idle();
  vi.restoreAllMocks();
});

function show(): void {
  render(
    <QueryClientProvider client={libraryQueryClient()}>
      <AutoCoversSection />
    </QueryClientProvider>,
  );
}

const toggle = async () => (await screen.findByRole('checkbox', { name: /Add a cover to new bookmarks/ })) as HTMLInputElement;
const share = () => screen.getByRole('combobox', { name: 'Share of cover storage automatic covers may use' });
const status = async () => (await screen.findByText(/^(Automatic covers have used|Stopped)/)).textContent;
const owner = async () => (await bg.services.account.owner())!;

describe('options: covers', () => {
  it('is on by default for a Pro account, and says what automatic covers used of their share', async () => {
    await autoCoverUsageItem.set([{ owner: await owner(), bytes: 3 * 1024 * 1024 + 200 * 1024, covers: 130, stopped: null }]);
    show();
    expect((await toggle()).checked).toBe(true);
    expect((share() as HTMLSelectElement).value).toBe('10');
    expect(await status()).toBe('Automatic covers have used 3.2 MB of 50 MB (130 covers).');
    expect(screen.getByRole('status').textContent).toBe('Automatic covers have used 3.2 MB of 50 MB (130 covers).');
  });

  it('is off by default for a free account, and keeps the user’s choice', async () => {
    await userItem.set({ ...(await userItem.get())!, plan: 'free' });
    show();
    const box = await toggle();
    expect(box.checked).toBe(false);
    expect(screen.getByText(/this account is on the free plan/)).toBeTruthy();
    await userEvent.click(box);
    await waitFor(async () => expect(await autoCoverSettingsItem.get()).toEqual({ enabled: true, sharePercent: 10 }));
    expect(box.checked).toBe(true);
  });

  it('says when the share stopped them, and a larger share starts them again', async () => {
    await autoCoverUsageItem.set([{ owner: await owner(), bytes: 25 * 1024 * 1024, covers: 1000, stopped: 'share' }]);
    await autoCoverSettingsItem.set({ enabled: null, sharePercent: 5 });
    show();
    expect(await status()).toBe('Stopped: automatic covers have used their share (25 MB of 25 MB). Choose a larger share to go on.');
    await userEvent.selectOptions(share(), '20% (100 MB of 500 MB)');
    await waitFor(async () => expect((await autoCoverUsageItem.get())[0]?.stopped).toBeNull());
    expect(await status()).toBe('Automatic covers have used 25 MB of 100 MB (1000 covers).');
  });

  it('says when the storage is full, for good, until the user starts them again', async () => {
    await autoCoverUsageItem.set([{ owner: await owner(), bytes: 1024 * 1024, covers: 40, stopped: 'storage-full' }]);
    show();
    expect(await status()).toBe('Stopped: your 500 MB of cover storage is full. Remove some covers, then start automatic covers again.');
    // A larger share changes nothing: the account's storage is full.
    await userEvent.selectOptions(share(), '50% (250 MB of 500 MB)');
    expect(await status()).toMatch(/storage is full/);
    await userEvent.click(screen.getByRole('button', { name: 'Start automatic covers again' }));
    expect(await status()).toBe('Automatic covers have used 1.0 MB of 250 MB (40 covers).');
    expect((await autoCoverUsageItem.get())[0]?.stopped).toBeNull();
  });

  it('asks to sign in to show what was used, when signed out', async () => {
    await bg.services.account.signOut();
    show();
    expect(await screen.findByText('Sign in to see what automatic covers have used.')).toBeTruthy();
    expect((await toggle()).checked).toBe(false);
  });
});
