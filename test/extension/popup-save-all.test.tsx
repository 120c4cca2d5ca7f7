// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import { closeDom } from './support/dom.ts';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setRuntime } from '../../components/messenger.ts';
import { App } from '../../entrypoints/popup/App.tsx';
import { startPopup } from '../../entrypoints/popup/startup.ts';
import { Bookmark, BookmarkPage } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import type { MessageName } from '../../lib/messaging/protocol.ts';
import * as z from 'zod/mini';
import { dataOf } from '../support/expect.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';

const MINUTE = 60_000;

let t: TestServer;
let bg: TestBackground;
let u: TestUser;
let user: UserEvent;
let windowId: number;
/** The names of the messages the popup sent, in order. */
let sent: MessageName[];

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
  sent = [];
  setRuntime({
    onMessage: bg.runtime.onMessage,
    sendMessage(message) {
      sent.push((message as { name: MessageName }).name);
      return bg.runtime.sendMessage(message);
    },
  });
  user = userEvent.setup();
  u = await t.user();
  await t.advance(2 * MINUTE);
  stubPageFetch(t);
  await bg.services.account.signIn(t.baseUrl, u.token);
  await bg.idle();
  windowId = (await fakeBrowser.windows.create({})).id!;
});
afterEach(async () => {
  cleanup();
  await bg.idle();
});

async function tab(url: string, title = ''): Promise<number> {
  const created = await fakeBrowser.tabs.create({ windowId, url });
  // The fake browser keeps what it is given; a real one reads the title from the page.
  await fakeBrowser.tabs.update(created.id!, { title } as { url?: string });
  return created.id!;
}

async function library(): Promise<Bookmark[]> {
  return dataOf(await u.api('GET', '/bookmarks?limit=200'), BookmarkPage).data;
}

/** Opens the popup on the window's first tab, then its *Save all tabs* view. */
async function openSaveAll(tabId: number): Promise<void> {
  history.replaceState(null, '', `?tabId=${tabId}`);
  render(<App startup={startPopup({ tabId })} />);
  await user.click(await screen.findByRole('button', { name: 'Save all tabs' }));
  await screen.findByRole('heading', { name: 'Save all tabs' });
}

const tagsInput = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Tags' });

async function startNewCollection(name: string): Promise<void> {
  await user.click(screen.getByRole('button', { name: 'Collection: Unsorted' }));
  await user.click(screen.getByRole('button', { name: 'New collection…' }));
  await createCollectionNamed(name);
}

/** In the open "New collection" form: the name, then Create. */
async function createCollectionNamed(name: string): Promise<void> {
  const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'New collection name' });
  await user.clear(field);
  // Pasted, as a long name would be: typing 300 characters one by one is slow.
  if (name !== '') {
    field.focus();
    await user.paste(name);
  }
  await user.click(screen.getByRole('button', { name: 'Create' }));
}

describe('Save all tabs from the popup', () => {
  it('saves the window’s web pages into a new collection with shared tags, one progress line to the end', async () => {
    const first = await tab('https://all.example/1', 'One');
    await tab('https://all.example/2', 'Two');
    await tab('https://all.example/kept', 'Kept');
    await tab('about:blank');
    const before = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://all.example/kept', title: 'Saved before', tags: ['mine'] } }), Bookmark, 201);
    await bg.services.index.sync();

    await openSaveAll(first);
    await screen.findByText(/3 tabs with a web page in this window\. 1 tab left out \(not web pages\)\./);
    await user.type(tagsInput(), 'later,tabs,');
    await startNewCollection('From my tabs');
    await screen.findByRole('button', { name: 'Collection: From my tabs' });
    await user.click(screen.getByRole('button', { name: 'Save 3 tabs' }));

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved 2 tabs · 1 already saved · 1 tab left out (not web pages).'), { timeout: 10_000 });
    const [made] = dataOf(await u.api('GET', '/collections'), z.array(Collection)).filter((c) => c.name === 'From my tabs');
    const byUrl = new Map((await library()).map((b) => [b.url, b]));
    for (const url of ['https://all.example/1', 'https://all.example/2']) expect(byUrl.get(url)).toMatchObject({ collectionId: made!.id, tags: ['later', 'tabs'] });
    expect(byUrl.get('https://all.example/kept')).toEqual(before);
    expect(sent.filter((name) => name === 'saveAllTabs')).toHaveLength(1);
  });

  it('says what is wrong with a new collection’s name or a tag, and sends nothing', async () => {
    const first = await tab('https://bad.example/1', 'One');
    await openSaveAll(first);
    await screen.findByRole('button', { name: 'Save 1 tab' });

    await startNewCollection('');
    expect((await screen.findByRole('alert')).textContent).toBe('Give the new collection a name.');
    await createCollectionNamed('x'.repeat(201));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('A collection’s name can be at most 200 characters long; this one has 201.'),
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    // A tag over the API's 200 characters stays in the field, said why, and is no chip.
    tagsInput().focus();
    await user.paste('t'.repeat(205));
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('A tag can be at most 200 characters long; this one has 205.');
    expect(screen.queryByRole('list', { name: 'Chosen tags' })).toBeNull();
    expect(tagsInput().value).toHaveLength(205);
    // Saving with it still there: the same message, and nothing goes.
    await user.click(screen.getByRole('button', { name: 'Save 1 tab' }));
    expect(screen.getByRole('alert').textContent).toBe('A tag can be at most 200 characters long; this one has 205.');
    await user.clear(tagsInput());
    await user.type(tagsInput(), 'a//b');
    await user.click(screen.getByRole('button', { name: 'Save 1 tab' }));
    expect(screen.getByRole('alert').textContent).toBe('A tag must not have an empty level (as in a//b).');

    expect(sent).not.toContain('saveAllTabs');
    expect(sent).not.toContain('createCollection');
    expect(dataOf(await u.api('GET', '/collections'), z.array(Collection))).toEqual([]);
    expect(await library()).toEqual([]);
  });
});
