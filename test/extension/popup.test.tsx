// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import { closeDom } from './support/dom.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import * as z from 'zod/mini';
import { setRuntime } from '../../components/messenger.ts';
import { App } from '../../entrypoints/popup/App.tsx';
import { DRAFT_MAX_AGE_MS, DRAFT_WRITE_DELAY_MS } from '../../entrypoints/popup/drafts.ts';
import { TAKEN_OVER_MARK, holdEarlyEvents, takeOverEarlyEvents } from '../../entrypoints/popup/early-events.ts';
import { mountPopup } from '../../entrypoints/popup/mount.tsx';
import { renderPopupShell } from '../../entrypoints/popup/shell.tsx';
import { startPopup } from '../../entrypoints/popup/startup.ts';
import { Bookmark, BookmarkPage } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { Tag } from '../../lib/api/tags.ts';
import { describeError } from '../../lib/client/user-text.ts';
import type { MessageName } from '../../lib/messaging/protocol.ts';
import type { Runtime } from '../../lib/messaging/transport.ts';
import { type Draft, draftsItem, lastCollectionItem, quickSaveTargetItem } from '../../lib/storage/items.ts';
import { saveQueueItem } from '../../lib/storage/background-items.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { ALL_SCOPES } from '../../lib/api/scopes.ts';
import { normaliseUrl } from '../../lib/url.ts';
import { dataOf } from '../support/expect.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { ShiftedClock } from '../support/manual-clock.ts';
import { png } from '../support/images.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

const MINUTE = 60_000;
const PAGE = { url: 'https://example.com/articles/shelf?utm_source=feed', title: 'How Shelf works' };

let t: TestServer;
let bg: TestBackground;
let u: TestUser;
let user: UserEvent;
let messages: Gate;

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
  messages = gate(bg.runtime);
  setRuntime(messages.runtime);
  user = userEvent.setup();
  u = await t.user();
  // The background's requests all come from 127.0.0.1: each test starts in a fresh gateway minute.
  await t.advance(2 * MINUTE);
  // The server fetches the page for what the popup leaves out (the description); no network here.
  stubPageFetch(t);
});
afterEach(async () => {
  messages.release();
  cleanup();
  await bg.idle();
  vi.restoreAllMocks();
});

interface Gate {
  runtime: Runtime;
  /** Every message the popup sent, in order. */
  sent: { name: MessageName; input: unknown }[];
  /** Messages with these names wait (unanswered) until release(). */
  hold(...names: MessageName[]): void;
  release(): void;
}

/** The background's runtime, recording what the popup sends and able to hold answers back. */
function gate(inner: Runtime): Gate {
  const sent: Gate['sent'] = [];
  const held = new Set<MessageName>();
  let waiting: (() => void)[] = [];
  return {
    sent,
    runtime: {
      onMessage: inner.onMessage,
      async sendMessage(message) {
        const { name, input } = message as { name: MessageName; input: unknown };
        sent.push({ name, input });
        if (held.has(name)) await new Promise<void>((resolve) => waiting.push(resolve));
        return inner.sendMessage(message);
      },
    },
    hold: (...names) => names.forEach((n) => held.add(n)),
    release() {
      held.clear();
      waiting.forEach((resume) => resume());
      waiting = [];
    },
  };
}

async function signIn(): Promise<void> {
  await bg.services.account.signIn(t.baseUrl, u.token);
}

async function openTab(url: string, title: string): Promise<number> {
  const tab = await fakeBrowser.tabs.create({ url });
  // fakeBrowser's tabs.create takes no title; its update keeps whatever it is given.
  await fakeBrowser.tabs.update(tab.id!, { title } as never);
  return tab.id!;
}

/** Makes a tab the active tab of the current window, as it is when the toolbar button is clicked. */
async function activateTab(page: { url: string; title: string } = PAGE): Promise<void> {
  const id = await openTab(page.url, page.title);
  const active = (await fakeBrowser.tabs.get(id))!;
  const query = fakeBrowser.tabs.query.bind(fakeBrowser.tabs);
  // fakeBrowser has no current window; other queries (the toolbar icon's) go through.
  vi.spyOn(fakeBrowser.tabs, 'query').mockImplementation(async (info) => (info.active && info.currentWindow ? [active] : query(info)));
}

/** Opens the popup on the active tab. */
async function openPopup(page: { url: string; title: string } = PAGE): Promise<void> {
  await activateTab(page);
  render(<App startup={startPopup()} />);
}

/** Opens the popup and waits for its form to show the tab (the form itself shows before the tab is known). */
async function openForm(page?: { url: string; title: string }): Promise<void> {
  await openPopup(page);
  await waitFor(() => expect(field('URL').value).not.toBe(''));
}

async function seedLibrary() {
  const tag = async (name: string) => dataOf(await u.api('POST', '/tags', { body: { name } }), Tag, 201);
  const collection = async (name: string, parentId: string | null = null) =>
    dataOf(await u.api('POST', '/collections', { body: { name, parentId } }), Collection, 201);
  await tag('dev/js');
  await tag('dev/rust');
  await tag('recipes');
  const work = await collection('Work');
  const projects = await collection('Projects', work.id);
  const shelf = await collection('Shelf', projects.id);
  const home = await collection('Home');
  return { work, projects, shelf, home };
}

async function allBookmarks(): Promise<Bookmark[]> {
  return dataOf(await u.api('GET', '/bookmarks?limit=200'), BookmarkPage).data;
}

async function saveOnServer(body: Record<string, unknown>): Promise<Bookmark> {
  const saved = dataOf(await u.api('POST', '/bookmarks', { body: { description: '', ...body } }), Bookmark, 201);
  await bg.services.index.sync(); // as the background does at sign-in and every hour
  return saved;
}

const field = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });
const saveButton = () => screen.findByRole('button', { name: 'Save' });
const tagsInput = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Tags' });
const collectionButton = () => screen.getByRole('button', { name: /^Collection: / });
const chipNames = () =>
  within(screen.queryByRole('list', { name: 'Chosen tags' }) ?? document.createElement('ul'))
    .queryAllByRole('button')
    .map((b) => b.getAttribute('aria-label'));

async function storedDraft(url = PAGE.url): Promise<Draft | undefined> {
  return (await draftsItem.get())[normaliseUrl(url)];
}

describe('a page not saved yet', () => {
  it('shows the tab with Save enabled before the background has answered anything, all asked for at once', async () => {
    await signIn();
    messages.hold('getAccount', 'lookupUrl', 'listTags', 'listCollections');
    await openPopup();

    const save = await saveButton();
    expect(save).toHaveProperty('disabled', false);
    expect(screen.getByRole('heading', { name: 'Save to Shelf' })).toBeTruthy();
    await waitFor(() => expect(field('URL').value).toBe(PAGE.url));
    expect(field('Title').value).toBe(PAGE.title);
    expect(collectionButton().getAttribute('aria-label')).toBe('Collection: Unsorted');
    await waitFor(() => expect(messages.sent.map((m) => m.name).sort()).toEqual(['getAccount', 'listCollections', 'listTags', 'lookupUrl']));
    await waitFor(() => expect(document.activeElement).toBe(tagsInput()));
  });

  it('shows the form before the tab is known, and a Save clicked meanwhile saves the tab once it is', async () => {
    await signIn();
    let answerTab!: () => void;
    const tabKnown = new Promise<void>((resolve) => (answerTab = resolve));
    const get = fakeBrowser.tabs.get.bind(fakeBrowser.tabs);
    const id = await openTab(PAGE.url, PAGE.title);
    vi.spyOn(fakeBrowser.tabs, 'get').mockImplementation(async (tabId) => {
      await tabKnown;
      return get(tabId);
    });
    render(<App startup={startPopup({ tabId: id })} />);

    const save = await saveButton();
    expect(save).toHaveProperty('disabled', false);
    expect(field('URL').value).toBe('');
    await user.click(save);
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages.sent.some((m) => m.name === 'saveBookmark')).toBe(false);

    answerTab();
    expect(await screen.findByRole('heading', { name: 'Saved in Shelf' })).toBeTruthy();
    expect(messages.sent.filter((m) => m.name === 'saveBookmark')).toHaveLength(1);
    await bg.idle();
    const stored = await allBookmarks();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ url: PAGE.url, title: PAGE.title });
    expect(field('URL').value).toBe(PAGE.url);
  });

  it('saves every field in one request, then shows the saved bookmark to edit', async () => {
    const { shelf } = await seedLibrary();
    await signIn();
    await openForm();

    const title = field('Title');
    await user.clear(title);
    await user.type(title, 'Shelf, explained');

    // An existing tag, found by a lower level of its name, chosen with the keyboard.
    await user.click(tagsInput());
    await user.keyboard('js');
    expect(await screen.findByRole('option', { name: 'dev › js' })).toBeTruthy();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(chipNames()).toEqual(['Remove tag dev/js']);

    // A tag the user does not have yet: offered to create, marked new.
    await user.keyboard('to read');
    expect(screen.getByRole('option', { name: 'Create tag “to read”' })).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(chipNames()).toEqual(['Remove tag dev/js', 'Remove tag to read']);
    expect(within(screen.getByRole('list', { name: 'Chosen tags' })).getAllByRole('listitem')[1]!.textContent).toContain('new');

    // A nested collection, found by searching.
    await user.click(collectionButton());
    await user.type(screen.getByRole('combobox', { name: 'Search collections' }), 'shel');
    const tree = screen.getByRole('tree', { name: 'Collections' });
    expect(within(tree).getByRole('treeitem', { name: 'Shelf' }).getAttribute('aria-level')).toBe('3');
    await user.keyboard('{Enter}');
    expect(collectionButton().getAttribute('aria-label')).toBe('Collection: Work › Projects › Shelf');
    expect(document.activeElement).toBe(collectionButton());

    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'Read before the meeting');
    await user.click(screen.getByRole('checkbox', { name: 'Favorite' }));
    await user.click(await saveButton());

    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Saved')); // the status is always there, empty until the save answers
    expect(screen.getByRole('heading', { name: 'Saved in Shelf' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Update' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Move to trash' })).toBeTruthy();

    const saves = messages.sent.filter((m) => m.name === 'saveBookmark');
    const [active] = await fakeBrowser.tabs.query({ active: true, currentWindow: true });
    expect(saves).toEqual([
      {
        name: 'saveBookmark',
        input: {
          // The tab it was saved from: a new bookmark's automatic cover is made from it.
          tabId: active!.id,
          bookmark: {
            url: PAGE.url,
            title: 'Shelf, explained',
            tags: ['dev/js', 'to read'],
            collectionId: shelf.id,
            note: 'Read before the meeting',
            isFavorite: true,
          },
          // Should the page turn out to be saved already, only these change: not the collection the form offered.
          edits: { title: 'Shelf, explained', tagsAdded: ['dev/js', 'to read'], note: 'Read before the meeting', isFavorite: true },
        },
      },
    ]);
    expect(bg.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/bookmarks'))).toHaveLength(1);

    const stored = await allBookmarks();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      url: PAGE.url,
      title: 'Shelf, explained',
      description: 'Description from the page',
      tags: expect.arrayContaining(['dev/js', 'to read']),
      collectionId: shelf.id,
      note: 'Read before the meeting',
      isFavorite: true,
    });
    expect(stored[0]!.tags).toHaveLength(2);
    await waitFor(async () => expect(await storedDraft()).toBeUndefined());
    expect(await lastCollectionItem.get()).toBe(shelf.id);
    // The saved tags exist now: no longer marked new.
    expect(within(screen.getByRole('list', { name: 'Chosen tags' })).getAllByRole('listitem')[1]!.textContent).not.toContain('new');
  });

  it('preselects the last used collection, and creates a collection inline inside the chosen one', async () => {
    const { work } = await seedLibrary();
    await lastCollectionItem.set(work.id);
    await signIn();
    await openPopup();

    await waitFor(() => expect(collectionButton().getAttribute('aria-label')).toBe('Collection: Work'));
    await user.click(collectionButton());
    await user.click(screen.getByRole('button', { name: 'New collection…' }));
    await user.type(screen.getByRole('textbox', { name: 'New collection name' }), 'Reading list');
    await user.click(screen.getByRole('checkbox', { name: 'Inside “Work”' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(collectionButton().getAttribute('aria-label')).toBe('Collection: Work › Reading list'));

    const created = dataOf(await u.api('GET', '/collections'), z.array(Collection)).find((c) => c.name === 'Reading list');
    expect(created).toMatchObject({ parentId: work.id, depth: 1 });

    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Saved')); // the status is always there, empty until the save answers
    expect((await allBookmarks())[0]?.collectionId).toBe(created?.id);
  });

  it('saves with Ctrl+Enter from any field, including a tag still being typed', async () => {
    await signIn();
    await openForm();
    await user.type(tagsInput(), 'half typed');
    await user.click(screen.getByRole('textbox', { name: 'Note' }));
    await user.keyboard('n{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Saved')); // the status is always there, empty until the save answers
    expect((await allBookmarks())[0]).toMatchObject({ title: PAGE.title, tags: ['half typed'], note: 'n', collectionId: null, isFavorite: false });
  });

  it('adds tags with a comma and removes the last one with Backspace', async () => {
    await signIn();
    await openForm();
    await user.type(tagsInput(), 'one, two,three');
    expect(chipNames()).toEqual(['Remove tag one', 'Remove tag two']);
    expect(tagsInput().value).toBe('three');
    await user.clear(tagsInput());
    await user.keyboard('{Backspace}');
    expect(chipNames()).toEqual(['Remove tag one']);
    await user.click(screen.getByRole('button', { name: 'Remove tag one' }));
    expect(chipNames()).toEqual([]);
  });
});

describe('a page already saved', () => {
  it('shows that bookmark and Update sends only what changed', async () => {
    await signIn();
    const { work, home } = await seedLibrary();
    const saved = await saveOnServer({ url: PAGE.url, title: 'Saved title', tags: ['recipes'], collectionId: work.id, note: 'old note' });
    await openPopup();

    expect(await screen.findByRole('heading', { name: 'Saved in Shelf' })).toBeTruthy();
    expect(field('Title').value).toBe('Saved title');
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' }).value).toBe('old note');
    expect(chipNames()).toEqual(['Remove tag recipes']);
    await waitFor(() => expect(collectionButton().getAttribute('aria-label')).toBe('Collection: Work'));
    const update = screen.getByRole('button', { name: 'Update' });
    expect(update).toHaveProperty('disabled', true); // nothing changed yet

    // Move it to another collection and favour it.
    await user.click(collectionButton());
    await user.type(screen.getByRole('combobox', { name: 'Search collections' }), 'home{Enter}');
    await user.click(screen.getByRole('checkbox', { name: 'Favorite' }));
    await user.click(update);

    expect((await screen.findByRole('status')).textContent).toContain('Updated');
    expect(messages.sent.filter((m) => m.name === 'updateBookmark')).toEqual([
      { name: 'updateBookmark', input: { id: saved.id, patch: { collectionId: home.id, isFavorite: true } } },
    ]);
    expect(messages.sent.some((m) => m.name === 'saveBookmark')).toBe(false);
    const after = await allBookmarks();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: saved.id, title: 'Saved title', tags: ['recipes'], note: 'old note', collectionId: home.id, isFavorite: true });
  });

  it('says how often it was opened from Shelf', async () => {
    await signIn();
    const saved = await saveOnServer({ url: PAGE.url, title: 'Saved title' });
    await openPopup();
    expect(await screen.findByText('Not opened from Shelf yet')).toBeTruthy();
    cleanup();
    expect((await u.api('PATCH', `/bookmarks/${saved.id}`, { body: { clickCount: 3 } })).status).toBe(200);
    await openPopup();
    expect(await screen.findByText('Opened 3 times')).toBeTruthy();
  });

  it('moves it to the trash and can save it again', async () => {
    await signIn();
    const saved = await saveOnServer({ url: PAGE.url, title: 'Saved title', note: 'keep me' });
    await openPopup();
    await user.click(await screen.findByRole('button', { name: 'Move to trash' }));

    expect(await screen.findByRole('heading', { name: 'In the trash' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Moved to trash');
    expect(await allBookmarks()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save again' }));
    expect(await screen.findByRole('heading', { name: 'Saved in Shelf' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Saved');
    const after = await allBookmarks();
    expect(after.map((b) => [b.id, b.note])).toEqual([[saved.id, 'keep me']]);
  });

  it('never duplicates it when Save is clicked before the lookup answers', async () => {
    await signIn();
    const saved = await saveOnServer({ url: PAGE.url, title: 'Saved title', tags: ['recipes'] });
    messages.hold('lookupUrl');
    await openPopup();
    await user.click(await saveButton());

    expect(await screen.findByRole('heading', { name: 'Saved in Shelf' })).toBeTruthy();
    messages.release();
    await bg.idle();
    expect(screen.getByRole('heading', { name: 'Saved in Shelf' })).toBeTruthy();
    expect((await allBookmarks()).map((b) => b.id)).toEqual([saved.id]);
  });
});

describe('drafts', () => {
  it('keeps what was typed when the popup closes and restores it when it opens again', async () => {
    await signIn();
    await openForm();
    await user.clear(field('Title'));
    await user.type(field('Title'), 'My own title');
    await user.type(tagsInput(), 'later{Enter}');
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'half a thought');
    cleanup(); // the popup closes

    await waitFor(async () => expect(await storedDraft()).toMatchObject({ title: 'My own title', tags: ['later'], note: 'half a thought' }));
    const { updatedAt } = (await storedDraft())!;

    // Keyed by the normalised URL: the same page without its tracking parameter finds it.
    vi.restoreAllMocks();
    await openForm({ url: 'https://www.example.com/articles/shelf', title: PAGE.title });
    // The draft comes with storage, which loads behind the first paint.
    await waitFor(() => expect(field('Title').value).toBe('My own title'));
    expect(chipNames()).toEqual(['Remove tag later']);
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' }).value).toBe('half a thought');
    // Opening it is no edit: the draft's age still counts from the last change.
    await new Promise((resolve) => setTimeout(resolve, DRAFT_WRITE_DELAY_MS + 50));
    expect((await storedDraft())?.updatedAt).toBe(updatedAt);
  });

  it('drops drafts older than 30 days when the popup opens', async () => {
    const now = Date.now();
    const draft = (title: string, age: number): Draft => ({ title, tags: [], collectionId: null, note: '', isFavorite: false, updatedAt: now - age });
    await draftsItem.set({
      [normaliseUrl(PAGE.url)]: draft('Too old', DRAFT_MAX_AGE_MS + MINUTE),
      'example.org/recent': draft('Recent', MINUTE),
    });
    await signIn();
    await openForm();
    expect(field('Title').value).toBe(PAGE.title);
    await waitFor(async () => expect(Object.keys(await draftsItem.get())).toEqual(['example.org/recent']));
  });

  describe('when storage answers after the tab', () => {
    const kept: Draft = { title: 'Kept title', tags: ['kept'], collectionId: null, note: 'kept note', isFavorite: false, updatedAt: Date.now() };
    let answerStorage: () => void;

    beforeEach(async () => {
      await draftsItem.set({ [normaliseUrl(PAGE.url)]: kept });
      await signIn();
      const held = new Promise<void>((resolve) => (answerStorage = resolve));
      const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local) as (keys?: unknown) => Promise<Record<string, unknown>>;
      vi.spyOn(fakeBrowser.storage.local, 'get').mockImplementation((async (keys?: unknown) => {
        await held;
        return get(keys);
      }) as never);
    });
    afterEach(() => answerStorage());

    it('shows the form with Save enabled without waiting, then restores the draft', async () => {
      await openPopup();
      expect(await saveButton()).toHaveProperty('disabled', false);
      await waitFor(() => expect(field('Title').value).toBe(PAGE.title));

      answerStorage();
      await waitFor(() => expect(field('Title').value).toBe('Kept title'));
      expect(chipNames()).toEqual(['Remove tag kept']);
      expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' }).value).toBe('kept note');
    });

    it('keeps what the user typed before the draft came, and makes that the draft', async () => {
      await openForm();
      await user.type(screen.getByRole('textbox', { name: 'Note' }), 'typed first');

      answerStorage();
      await waitFor(async () => expect(await storedDraft()).toMatchObject({ title: PAGE.title, tags: [], note: 'typed first' }));
      expect(field('Title').value).toBe(PAGE.title);
      expect(chipNames()).toEqual([]);
    });
  });
});

describe('errors and other states', () => {
  it('says in words why a save failed and keeps every field as typed', async () => {
    await signIn();
    await openForm();
    await user.clear(field('Title'));
    await user.type(field('Title'), 'Typed before the failure');
    await user.type(tagsInput(), 'kept{Enter}');
    await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());

    await user.click(await saveButton());
    const alert = await screen.findByRole('alert');
    const text = describeError({ code: 'TOKEN_REVOKED', message: '', retryAfterSeconds: undefined });
    expect(alert.textContent).toContain(text.title);
    expect(alert.textContent).toContain(text.action);
    expect(screen.getByRole('heading', { name: 'Save to Shelf' })).toBeTruthy();
    expect(field('Title').value).toBe('Typed before the failure');
    expect(chipNames()).toEqual(['Remove tag kept']);
    await waitFor(async () => expect(await storedDraft()).toMatchObject({ title: 'Typed before the failure', tags: ['kept'] }));
    expect(await saveButton()).toHaveProperty('disabled', false);
  });

  it('a save the server cannot take now waits in the queue: the popup says so, shows it when opened again, and an edit changes it', async () => {
    const proxy = await startFaultProxy(t.baseUrl);
    try {
      await bg.services.account.signIn(proxy.baseUrl, u.token);
      await bg.idle();
      proxy.fault = 'down';
      await openForm();
      await user.clear(field('Title'));
      await user.type(field('Title'), 'Saved while offline');
      await user.click(await saveButton());
      await waitFor(() => expect(screen.getByRole('status').textContent).toBe('⏳ Waiting to be saved'));
      expect(screen.getByRole('alert').textContent).toContain(describeError({ code: 'NETWORK_ERROR', message: '', retryAfterSeconds: undefined }).title);
      cleanup();

      vi.restoreAllMocks();
      await draftsItem.set({}); // what the popup shows now comes from the queue alone
      await openForm();
      await waitFor(() => expect(field('Title').value).toBe('Saved while offline'));
      await waitFor(() => expect(screen.getByRole('status').textContent).toBe('⏳ Waiting to be saved'));
      await user.clear(field('Title'));
      await user.type(field('Title'), 'Edited while offline');
      await user.click(await saveButton());
      await waitFor(() => expect(screen.getByRole('status').textContent).toBe('⏳ Waiting to be saved'));
      expect((await saveQueueItem.get()).map((s) => s.body.title)).toEqual(['Edited while offline']);

      proxy.fault = 'pass';
      await bg.services.queue.drain(true);
      expect((await allBookmarks()).map((b) => b.title)).toEqual(['Edited while offline']);
    } finally {
      await proxy.close();
    }
  });

  it('a save held back by the extension’s own request budget is queued: the popup says when it goes, never to try again, and it goes then', async () => {
    const clock = new ShiftedClock();
    bg = createTestBackground({ clock });
    messages = gate(bg.runtime);
    setRuntime(messages.runtime);
    await signIn();
    await bg.idle();
    // The minute's budget spent by this extension (the server has refused nothing): the next request would wait longer than a user's does.
    const client = await bg.services.account.client();
    for (let sent = 0; ; sent++) {
      expect(sent).toBeLessThan(100);
      const answer = await client.call('listTags', { priority: 'user' }).catch((err: unknown) => err);
      if (answer instanceof Error) {
        expect(answer).toMatchObject({ code: 'RATE_LIMITED', status: undefined });
        break;
      }
    }
    await openForm();
    await user.clear(field('Title'));
    await user.type(field('Title'), 'Saved while the budget was spent');
    await user.click(await saveButton());

    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^⏳ Saved to the queue: it goes in about \d+ s$/));
    const goesIn = Number(/about (\d+) s/.exec(screen.getByRole('status').textContent ?? '')![1]);
    expect(goesIn).toBeGreaterThan(15);
    expect(goesIn).toBeLessThanOrEqual(65);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.body.textContent).not.toContain('try again');
    const [queued] = await saveQueueItem.get();
    expect(queued).toMatchObject({ error: null, refused: false, body: { title: 'Saved while the budget was spent' } });
    expect(queued!.nextAttemptAt - Date.now()).toBeGreaterThan(15_000);
    expect(await allBookmarks()).toEqual([]);

    // Once the minute has passed, the queue's next try sends it.
    clock.advance(2 * MINUTE);
    await t.advance(2 * MINUTE);
    await bg.services.queue.drain(true);
    expect((await allBookmarks()).map((b) => b.title)).toEqual(['Saved while the budget was spent']);
    expect(await saveQueueItem.get()).toEqual([]);
  });

  it('says in words why a new collection could not be made', async () => {
    await signIn();
    await openForm();
    await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());
    await user.click(collectionButton());
    await user.click(screen.getByRole('button', { name: 'New collection…' }));
    await user.keyboard('Ideas{Enter}');
    const form = screen.getByRole('group', { name: 'New collection' });
    expect((await within(form).findByRole('alert')).textContent).toContain(describeError({ code: 'TOKEN_REVOKED', message: '', retryAfterSeconds: undefined }).title);
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: 'New collection name' }).value).toBe('Ideas');
    expect(collectionButton().getAttribute('aria-label')).toBe('Collection: Unsorted');
  });

  it('a revoked token: the popup says so at once with Sign in again, which opens the Account section; the save made meanwhile goes after the new sign-in', async () => {
    await signIn();
    await bg.idle();
    await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());
    await expect(bg.handlers.listTags({ refresh: true })).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    await openForm();
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    vi.spyOn(fakeBrowser.runtime, 'getURL').mockImplementation((path: string) => `chrome-extension://shelf${path}`);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(describeError({ code: 'TOKEN_REVOKED', message: '', retryAfterSeconds: undefined }).title);
    // A local server: the words are the admin command that makes this account a new token.
    expect(await screen.findByText(`npm run --silent admin -- --data DIR token create --user ${u.userId} --name Shelf --scopes all`)).toBeTruthy();

    await user.clear(field('Title'));
    await user.type(field('Title'), 'Saved while the token was revoked');
    await user.click(await saveButton());
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('⏳ Waiting to be saved'));
    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(create).toHaveBeenCalledExactlyOnceWith({ url: 'chrome-extension://shelf/options.html?sign-in#account' });

    const { token } = await issueToken(t.server.deps.store.accounts, { userId: u.userId, name: 'new', scopes: [...ALL_SCOPES], expiresAt: null }, t.server.deps.clock.now());
    await bg.handlers.signIn({ serverUrl: t.baseUrl, token });
    const titles = async () => dataOf(await u.api('GET', '/bookmarks', { token }), BookmarkPage).data.map((b) => b.title);
    await waitFor(async () => expect(await titles()).toEqual(['Saved while the token was revoked']), POLL_SERVER);
    expect(await saveQueueItem.get()).toEqual([]);
  });

  it('asks to sign in, with no form, when no account is signed in', async () => {
    const openOptions = vi.spyOn(fakeBrowser.runtime, 'openOptionsPage').mockResolvedValue();
    await openPopup();
    expect(await screen.findByRole('heading', { name: 'Sign in to Shelf' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Title' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open Shelf options' }));
    expect(openOptions).toHaveBeenCalledOnce();
  });

  it.each(['chrome://extensions/', 'about:blank', 'file:///home/me/notes.html'])('says that %s cannot be saved', async (url) => {
    await signIn();
    await openPopup({ url, title: 'Not a web page' });
    expect(await screen.findByRole('heading', { name: 'This page can’t be saved' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('acts on the tab named in ?tabId= rather than the active one', async () => {
    await signIn();
    const other = await openTab('https://example.net/chosen', 'The chosen tab');
    const query = vi.spyOn(fakeBrowser.tabs, 'query');
    render(<App startup={startPopup({ tabId: other })} />);
    await saveButton();
    await waitFor(() => expect(field('URL').value).toBe('https://example.net/chosen'));
    expect(field('Title').value).toBe('The chosen tab');
    expect(query).not.toHaveBeenCalled();
  });
});

describe('keyboard', () => {
  it('Escape closes a picker first, then the popup', async () => {
    const close = vi.fn();
    vi.stubGlobal('close', close);
    await signIn();
    await openPopup();
    await saveButton();

    await user.click(collectionButton());
    await user.click(screen.getByRole('button', { name: 'New collection…' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'New collection' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Search collections' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tree')).toBeNull();
    expect(document.activeElement).toBe(collectionButton());
    expect(close).not.toHaveBeenCalled();

    await user.click(tagsInput());
    await user.keyboard('x');
    expect(screen.getByRole('listbox', { name: 'Tag suggestions' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox', { name: 'Tag suggestions' })).toBeNull();
    expect(close).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    expect(close).toHaveBeenCalledOnce();
    vi.unstubAllGlobals();
  });

  it('reaches every control with Tab', async () => {
    await signIn();
    await openPopup();
    await saveButton();
    await user.type(tagsInput(), 'a{Enter}');
    const nameOf = (el: Element) => el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent;
    const reached: (string | null)[] = [];
    (document.activeElement as HTMLElement).blur();
    for (let i = 0; i < 8; i++) {
      await user.tab();
      reached.push(nameOf(document.activeElement!));
    }
    expect(reached).toEqual(['Title', 'URL', 'Remove tag a', 'Tags', 'Collection: Unsorted', 'Note', 'Favorite', 'Save']);
  });
});

describe('the pre-rendered popup, before and as React takes it over', () => {
  let root: Root | undefined;
  let mismatch: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    mismatch = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    // The next test is a new page: no holder left listening, nothing saying the app has it.
    takeOverEarlyEvents(window);
    Reflect.deleteProperty(window, Symbol.for('shelf.popup.earlyEvents'));
    root?.unmount();
    root = undefined;
    document.body.replaceChildren();
    performance.clearMarks(TAKEN_OVER_MARK);
    // Every test here ends with React holding the page it was given, element for element.
    expect(mismatch).not.toHaveBeenCalled();
  });

  /** popup.html as built: the pre-rendered form in #root, and popup-early.js holding what the user does. */
  function showPage(): HTMLElement {
    const page = document.createElement('div');
    page.id = 'root';
    page.innerHTML = renderPopupShell();
    document.body.append(page);
    holdEarlyEvents(window);
    return page;
  }
  /** main.tsx, once the popup's script has loaded. */
  const takeOver = (page: HTMLElement) => {
    root = mountPopup(page, startPopup());
  };
  const takenOver = () => waitFor(() => expect(performance.getEntriesByName(TAKEN_OVER_MARK)).toHaveLength(1));
  /** What the browser does for a key pressed in a page no script handles yet: the element changes and nothing else. */
  const typeBefore = (element: HTMLInputElement | HTMLTextAreaElement, text: string) => {
    element.value = text;
  };
  const pressBefore = (element: Element, key: string, modifiers: KeyboardEventInit = {}) =>
    element.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...modifiers }));

  it('shows the whole form with Save enabled, each control named, the tags field marked to take the focus, before any script', () => {
    showPage();
    expect(screen.getByRole('heading', { name: 'Save to Shelf' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
    for (const name of ['Title', 'URL', 'Note']) expect(field(name)).toBeTruthy();
    expect(tagsInput().hasAttribute('autofocus')).toBe(true);
    expect(collectionButton()).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Favorite' })).toBeTruthy();
    // Submitting without the app goes nowhere (no reload of the popup).
    expect(screen.getByRole('button', { name: 'Save' }).closest('form')?.getAttribute('method')).toBe('dialog');
  });

  it.each([
    ['gives the tags field the focus when the browser did not', null, 'Tags'],
    ['leaves the focus where the user put it before React took over', 'Title', 'Title'],
  ])('%s', async (_, focusedBefore, focusedAfter) => {
    await signIn();
    await activateTab();
    const page = showPage();
    if (focusedBefore) field(focusedBefore).focus();
    takeOver(page);
    await takenOver();
    const expected = () => (focusedAfter === 'Tags' ? tagsInput() : field(focusedAfter));
    await waitFor(() => expect(document.activeElement).toBe(expected()));
  });

  it('keeps what was typed before React took over, and saves once when Save was clicked meanwhile', async () => {
    await signIn();
    await activateTab();
    const page = showPage();
    typeBefore(field('Title'), 'Typed before the script');
    typeBefore(tagsInput(), 'early');
    typeBefore(field('Note'), 'A note typed early');
    screen.getByRole<HTMLInputElement>('checkbox', { name: 'Favorite' }).checked = true;
    screen.getByRole('button', { name: 'Save' }).click();
    screen.getByRole('button', { name: 'Save' }).click(); // an impatient second click: held too, and finds the save under way

    takeOver(page);
    await screen.findByRole('heading', { name: 'Saved in Shelf' });
    expect(messages.sent.filter((m) => m.name === 'saveBookmark')).toHaveLength(1);
    const saved = await allBookmarks();
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ url: PAGE.url, title: 'Typed before the script', tags: ['early'], note: 'A note typed early', isFavorite: true });
    // The same elements, now React's: the title field shows the saved value.
    expect(field('Title').value).toBe('Typed before the script');
  });

  it('does for an early Enter in the tags field what it does later: adds the tag, saves nothing', async () => {
    await signIn();
    await activateTab();
    const page = showPage();
    typeBefore(tagsInput(), 'reading/later');
    expect(pressBefore(tagsInput(), 'Enter')).toBe(false); // held: no submission meanwhile

    takeOver(page);
    await waitFor(() => expect(chipNames()).toEqual(['Remove tag reading/later']));
    expect(tagsInput().value).toBe('');
    await waitFor(() => expect(field('URL').value).toBe(PAGE.url));
    expect(messages.sent.map((m) => m.name)).not.toContain('saveBookmark');
  });

  it.each([
    ['Enter in the title', 'Title', {}],
    ['Ctrl+Enter in the note', 'Note', { ctrlKey: true }],
  ])('saves on an early %s', async (_, name, modifiers) => {
    await signIn();
    await activateTab();
    const page = showPage();
    typeBefore(field(name), 'typed early');
    pressBefore(field(name), 'Enter', modifiers);

    takeOver(page);
    await screen.findByRole('heading', { name: 'Saved in Shelf' });
    expect(await allBookmarks()).toMatchObject([{ url: PAGE.url, [name.toLowerCase()]: 'typed early' }]);
  });

  it('closes on an early Escape, and stops holding once React has the page', async () => {
    const close = vi.fn();
    vi.stubGlobal('close', close);
    await signIn();
    await activateTab();
    const page = showPage();
    pressBefore(field('Title'), 'Escape');
    expect(close).toHaveBeenCalledOnce();

    takeOver(page);
    await takenOver();
    // React's own handlers now: a click on the collection button opens the picker at once.
    await user.click(collectionButton());
    expect(await screen.findByRole('dialog', { name: 'Choose a collection' })).toBeTruthy();
    vi.unstubAllGlobals();
  });

  it('closes on Escape after the early Save it follows, and refuses typing while that waits', async () => {
    const close = vi.fn();
    vi.stubGlobal('close', close);
    await signIn();
    await activateTab();
    const page = showPage();
    pressBefore(field('Title'), 'Enter', { ctrlKey: true });
    pressBefore(field('Title'), 'Escape');
    expect(close).not.toHaveBeenCalled();
    // What is typed after it would join what the held key acts on: the page holds it back.
    expect(field('Title').dispatchEvent(new InputEvent('beforeinput', { data: 'x', bubbles: true, cancelable: true }))).toBe(false);

    takeOver(page);
    await waitFor(() => expect(close).toHaveBeenCalledOnce());
    await waitFor(async () => expect(await allBookmarks()).toHaveLength(1), POLL_SERVER);
    vi.unstubAllGlobals();
  });

  it('leaves an input method its own Enter', () => {
    showPage();
    expect(pressBefore(tagsInput(), 'Enter', { isComposing: true })).toBe(true);
  });

  it('holds nothing when the early script runs after React has taken the page over', async () => {
    await signIn();
    await activateTab();
    const page = document.createElement('div');
    page.innerHTML = renderPopupShell();
    document.body.append(page);
    takeOver(page);
    await takenOver();
    holdEarlyEvents(window);

    await user.click(collectionButton());
    expect(await screen.findByRole('dialog', { name: 'Choose a collection' })).toBeTruthy();
  });

  it('drops an early Save when the tab turns out not to be saveable', async () => {
    await signIn();
    await activateTab({ url: 'chrome://extensions/', title: 'Extensions' });
    const page = showPage();
    screen.getByRole('button', { name: 'Save' }).click();

    takeOver(page);
    await screen.findByRole('heading', { name: 'This page can’t be saved' });
    await bg.idle();
    expect(messages.sent.map((m) => m.name)).not.toContain('saveBookmark');
  });
});

describe('the cover of a saved page', () => {
  const COVERED = { url: 'https://example.com/with-a-cover', title: 'A page with a cover' };
  const PNG_DATA_URL = `data:image/png;base64,${Buffer.from(png(32, 20)).toString('base64')}`;

  /** Saved by setting its cover, as the image context menu does (a data: image, as a page may have one). */
  async function coveredPage(): Promise<{ bookmark: Bookmark; url: string }> {
    await signIn();
    const set = await bg.services.covers.set({ srcUrl: PNG_DATA_URL, pageUrl: COVERED.url });
    await openPopup(COVERED);
    await screen.findByRole('heading', { name: 'Saved in Shelf' });
    return set;
  }

  const bookmarkOnServer = async (id: string) => dataOf(await u.api('GET', `/bookmarks/${id}`), Bookmark);

  it('shows the cover with Remove cover, which removes it on the server', async () => {
    const { bookmark, url } = await coveredPage();

    const image = await screen.findByRole<HTMLImageElement>('img', { name: 'Cover' });
    expect(image.src).toBe(url);
    await user.click(screen.getByRole('button', { name: 'Remove cover' }));

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('✓ Cover removed'));
    expect(screen.queryByRole('img', { name: 'Cover' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove cover' })).toBeNull();
    expect((await bookmarkOnServer(bookmark.id)).coverImage).toBeNull();
  });

  it('says why a removal failed and keeps showing the cover', async () => {
    const { bookmark } = await coveredPage();
    await screen.findByRole('img', { name: 'Cover' });
    // Trashed elsewhere meanwhile: the server no longer changes its cover.
    expect((await u.api('DELETE', `/bookmarks/${bookmark.id}`)).status).toBe(200);

    await user.click(screen.getByRole('button', { name: 'Remove cover' }));

    expect((await screen.findByRole('alert')).textContent).toContain('That item no longer exists.');
    expect(screen.getByRole('img', { name: 'Cover' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove cover' })).toHaveProperty('disabled', false);
  });

  it('shows no cover controls for a saved page without a cover', async () => {
    await signIn();
    await saveOnServer({ url: COVERED.url });
    await openPopup(COVERED);
    await screen.findByRole('heading', { name: 'Saved in Shelf' });
    expect(screen.queryByRole('img', { name: 'Cover' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove cover' })).toBeNull();
  });
});

describe('where quick saves go', () => {
  const line = () => screen.findByText(/^Quick saves \(shortcut, right-click menu\) go to/);
  const change = () => screen.getByRole('link', { name: 'Change where quick saves go' });

  it('says Unsorted by default, with a link to the options page’s Quick saves section', async () => {
    await signIn();
    await openForm();
    expect((await line()).textContent).toBe('Quick saves (shortcut, right-click menu) go to Unsorted. Change');
    expect(change().getAttribute('href')).toMatch(/\/options\.html#quick-save$/);
  });

  it('names the chosen collection with its parents, and the last collection used when that is the choice', async () => {
    await signIn();
    const { shelf } = await seedLibrary();
    await quickSaveTargetItem.set({ kind: 'collection', collectionId: shelf.id });
    await openForm();
    await waitFor(async () => expect((await line()).textContent).toContain('go to Work › Projects › Shelf.'));
    cleanup();
    await quickSaveTargetItem.set({ kind: 'last' });
    await openForm();
    expect((await line()).textContent).toContain('go to the last collection you saved to.');
  });

  it('says Unsorted, and why, when the chosen collection is no longer in the library', async () => {
    await signIn();
    const { home } = await seedLibrary();
    await quickSaveTargetItem.set({ kind: 'collection', collectionId: home.id });
    expect((await u.api('DELETE', `/collections/${home.id}`)).status).toBe(200);
    await openForm();
    await waitFor(async () =>
      expect((await line()).textContent).toBe('Quick saves (shortcut, right-click menu) go to Unsorted: the collection chosen for them is no longer in your library. Change'),
    );
    expect(change()).toBeTruthy();
  });
});
