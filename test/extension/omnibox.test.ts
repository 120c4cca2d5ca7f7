// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IndexMemory } from '../../entrypoints/background/index-memory.ts';
import { Omnibox, type Suggestion, escapeDescription, setupOmnibox } from '../../entrypoints/background/omnibox.ts';
import { SearchTextStore } from '../../lib/storage/search-text-store.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';

const MINUTE = 60_000;
const PAUSE = 40;

let t: TestServer;
let bg: TestBackground;
let u: TestUser;
let recorded: string[];

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  fakeBrowser.reset();
  await t.advance(2 * MINUTE);
  stubPageFetch(t);
  bg = createTestBackground();
  u = await t.user();
  await bg.handlers.signIn({ serverUrl: t.baseUrl, token: u.token });
  await bg.idle();
  recorded = [];
});

function omnibox(xml = true, index = new IndexMemory(fakeBrowser.storage.local)): Omnibox {
  const opens = { record: (id: string) => Promise.resolve(void recorded.push(id)) };
  return new Omnibox(bg.services.account, index, opens, fakeBrowser.tabs, xml, PAUSE);
}

async function saved(url: string, title: string): Promise<string> {
  await u.api('POST', '/bookmarks', { body: { url, title, description: '' } });
  const { body } = await u.api('GET', '/bookmarks?limit=200');
  return (body as { data: { data: { id: string; url: string }[] } }).data.data.find((b) => b.url === url)!.id;
}

/** Every list of suggestions the box was given for one input, in order. */
async function type(box: Omnibox, text: string): Promise<Suggestion[][]> {
  const calls: Suggestion[][] = [];
  await box.inputChanged(text, (s) => calls.push(s));
  return calls;
}

describe('omnibox', () => {
  it('suggests saved pages whose URL holds the words at once, then the search’s matches after the pause', async () => {
    await saved('https://moss.example/garden', 'Moss <gardens> & "walls"');
    await bg.services.index.sync({ full: true });
    const calls = await type(omnibox(), 'moss');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toEqual([{ content: 'https://moss.example/garden', description: 'https://moss.example/garden' }]);
    expect(calls[1]![0]).toEqual({ content: 'https://moss.example/garden', description: 'Moss &lt;gardens&gt; &amp; &quot;walls&quot; — https://moss.example/garden' });
    expect(calls[1]).toHaveLength(1);
  });

  it('gives Firefox plain text and Chrome escaped XML', () => {
    expect(escapeDescription("<b>a & b's</b>", true)).toBe('&lt;b&gt;a &amp; b&apos;s&lt;/b&gt;');
    expect(escapeDescription("<b>a & b's</b>", false)).toBe("<b>a & b's</b>");
  });

  it('suggests nothing for words no saved page matches', async () => {
    await saved('https://moss.example/garden', 'Moss');
    await bg.services.index.sync({ full: true });
    const calls = await type(omnibox(), 'fern');
    expect(calls).toEqual([[], []]);
  });

  it('drops the answer for input the user has changed while it waited', async () => {
    await saved('https://moss.example/garden', 'Moss');
    await saved('https://fern.example/', 'Fern');
    await bg.services.index.sync({ full: true });
    const box = omnibox();
    const first: Suggestion[][] = [];
    const second: Suggestion[][] = [];
    const older = box.inputChanged('moss', (s) => first.push(s));
    const newer = box.inputChanged('fern', (s) => second.push(s));
    await Promise.all([older, newer]);
    expect(first.length).toBeLessThanOrEqual(1);
    expect(second.at(-1)!.map((s) => s.content)).toEqual(['https://fern.example/']);
  });

  it('opens the chosen suggestion in a new tab and records the open', async () => {
    const id = await saved('https://moss.example/garden', 'Moss');
    await bg.services.index.sync({ full: true });
    const box = omnibox();
    await type(box, 'moss');
    await box.inputEntered('https://moss.example/garden', 'newForegroundTab');
    const tabs = await fakeBrowser.tabs.query({});
    expect(tabs.map((tab) => tab.url)).toContain('https://moss.example/garden');
    expect(recorded).toEqual([id]);
  });

  it('opens a saved page found in the index at its own address, which the index’s key does not keep', async () => {
    const url = 'http://www.moss.example/Garden?id=3&utm_source=feed';
    const id = await saved(url, 'Moss');
    await bg.services.index.sync({ full: true });
    const box = omnibox();
    const [local] = await type(box, 'moss');
    // The index knows a comparison key (no scheme, no www., no tracking parameter): shown, never opened as such.
    expect(local!.map((s) => s.content)).toEqual(['https://moss.example/Garden?id=3']);
    await box.inputEntered('https://moss.example/Garden?id=3', 'newForegroundTab');
    expect((await fakeBrowser.tabs.query({})).map((tab) => tab.url)).toContain(url);
    expect(recorded).toEqual([id]);
  });

  it('opens an index match whose id is not known (kept keys whose ids were lost) at its key’s address, and records no open', async () => {
    const id = await saved('https://moss.example/garden', 'Moss');
    await bg.services.index.sync({ full: true });
    const lost = new SearchTextStore({
      get: () => ({ keys: Promise.resolve('moss.example/garden'), ids: Promise.resolve(`${id}\nbm_gone`) }),
      put: () => Promise.resolve(),
      remove: () => Promise.resolve(),
    });
    // Words that are no URL open the first local match (the search's exact ones would know the id).
    await omnibox(true, new IndexMemory(fakeBrowser.storage.local, lost)).inputEntered('moss garden', 'newForegroundTab');
    expect((await fakeBrowser.tabs.query({})).map((tab) => tab.url)).toContain('https://moss.example/garden');
    expect(recorded).toEqual([]);
  });

  it('opens the first saved page matching typed words that are no URL', async () => {
    await saved('https://moss.example/garden', 'Moss');
    await bg.services.index.sync({ full: true });
    await omnibox().inputEntered('moss garden', 'newBackgroundTab');
    expect((await fakeBrowser.tabs.query({})).map((tab) => tab.url)).toContain('https://moss.example/garden');
  });

  it('matches only the latest of the keystrokes typed while the text is read, each earlier one dropped unanswered', async () => {
    await saved('https://moss.example/garden', 'Moss');
    await saved('https://mossy.example/', 'Mossy');
    await bg.services.index.sync({ full: true });
    const memory = new IndexMemory(fakeBrowser.storage.local);
    const matching = vi.spyOn(memory, 'matching');
    const box = omnibox(true, memory);
    // A word's keystrokes as a stopped worker gets them: all before its first read of the text has answered.
    const answers: Record<string, Suggestion[][]> = {};
    await Promise.all(['m', 'mo', 'mos', 'moss', 'mossy'].map((text) => box.inputChanged(text, (s) => (answers[text] ??= []).push(s))));
    expect(matching.mock.calls).toEqual([[['mossy'], 6]]);
    expect(Object.keys(answers)).toEqual(['mossy']);
    expect(answers.mossy![0]!.map((s) => s.content)).toEqual(['https://mossy.example']);
    // Typed after the read, each keystroke is matched and answered.
    expect((await type(box, 'moss'))[0]!.map((s) => s.content).sort()).toEqual(['https://moss.example/garden', 'https://mossy.example']);
    expect(matching).toHaveBeenCalledTimes(2);
    // Nothing typed but the keyword reads nothing and answers at once, with nothing.
    expect(await type(omnibox(true, new IndexMemory(fakeBrowser.storage.local)), '  ')).toEqual([[]]);
  });

  it('answers each keystroke from memory: the index read once, kept current by its changes, read again after a restart', async () => {
    const first = await saved('https://moss.example/garden', 'Moss');
    await bg.services.index.sync({ full: true });
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    // The index's reads only: the search after the pause reads the account.
    const reads = () => get.mock.calls.filter((args) => JSON.stringify(args).includes('savedIndex')).length;
    const box = omnibox(true, new IndexMemory(fakeBrowser.storage.local));
    const local = async (text: string) => (await type(box, text))[0]!.map((s) => s.content);

    expect(await local('moss')).toEqual(['https://moss.example/garden']);
    expect(reads()).toBe(1);
    get.mockClear();
    for (const text of ['m', 'mo', 'mos', 'moss g', 'garden']) await local(text);
    expect(reads()).toBe(0);

    // The index changes (a save, a deletion): the next keystroke sees it, still without reading storage.
    // (The index's own read-modify-write reads it: those reads are cleared, the keystrokes' are counted.)
    await bg.services.index.remember({ id: 'bm_wall', url: 'https://moss.example/wall' });
    get.mockClear();
    expect((await local('moss')).sort()).toEqual(['https://moss.example/garden', 'https://moss.example/wall']);
    expect(reads()).toBe(0);
    await bg.services.index.forget({ id: first, url: 'https://moss.example/garden' });
    get.mockClear();
    expect(await local('moss')).toEqual(['https://moss.example/wall']);
    expect(reads()).toBe(0);

    // A restarted background has lost its memory: its first keystroke reads the index again.
    const restarted = omnibox(true, new IndexMemory(fakeBrowser.storage.local));
    expect((await type(restarted, 'moss'))[0]!.map((s) => s.content)).toEqual(['https://moss.example/wall']);
    expect(reads()).toBe(1);
  });

  it('reads the index when the keyword is entered, so that the first word waits for no read', async () => {
    await saved('https://moss.example/garden', 'Moss');
    await bg.services.index.sync({ full: true });
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    get.mockClear(); // the spy of the test before may still count
    const reads = () => get.mock.calls.filter((args) => JSON.stringify(args).includes('savedIndex')).length;
    const memory = new IndexMemory(fakeBrowser.storage.local);
    // The address bar's events, as a browser fires them (WXT's fake browser has none).
    const started: (() => void)[] = [];
    const ignored = { addListener: () => undefined };
    const browserApi = { omnibox: { onInputStarted: { addListener: (fn: () => void) => started.push(fn) }, onInputChanged: ignored, onInputEntered: ignored } };
    setupOmnibox(browserApi as unknown as Parameters<typeof setupOmnibox>[0], omnibox(true, memory), memory);
    expect(reads()).toBe(0);

    for (const fn of started) fn();
    await vi.waitFor(() => expect(reads()).toBe(1));
    get.mockClear();
    expect((await type(omnibox(true, memory), 'moss'))[0]!.map((s) => s.content)).toEqual(['https://moss.example/garden']);
    expect(reads()).toBe(0);
  });
});
