// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import * as z from 'zod/mini';
import { setRuntime } from '../../components/messenger.ts';
import { SmartFoldersSection } from '../../components/options/smart-folders/SmartFoldersSection.tsx';
import { TransferSection } from '../../components/options/transfer/TransferSection.tsx';
import { toNetscapeHtml } from '../../components/options/transfer/browser-bookmarks.ts';
import { TrashSection } from '../../components/options/trash/TrashSection.tsx';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import type { Scope } from '../../lib/api/scopes.ts';
import { SmartFolder } from '../../lib/api/smart-folders.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { dataOf } from '../support/expect.ts';
import { netscapeHtml } from '../support/import-files.ts';
import { type TestUser } from '../support/server.ts';
import { createFolder, insertBookmarks } from '../server/smart-folders-fixtures.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';
import { libraryPageServer } from './support/library-page.ts';
import { SPEC_LIMITS } from '../../lib/client/scheduler.ts';
import { libraryQueryClient } from '../../components/library/query-client.ts';

const MINUTE = 60_000;
/** The scheduler's heavy-endpoint window (a minute and its margin), and a second more: the next evaluation may go. */
const HEAVY_WINDOW = MINUTE + SPEC_LIMITS.marginMs + 1000;
// A browser's Netscape file the project writes itself, so that this test runs in any clone.
const FIXTURE = netscapeHtml();

const server = libraryPageServer({ width: 560, height: 480 });
let bg: TestBackground;
let u: TestUser;
let user: UserEvent;


async function signIn(scopes?: Scope[], expiresAt?: number): Promise<void> {
  u = await server.t.user({ ...(scopes && { scopes }), ...(expiresAt !== undefined && { expiresAt }) });
  await bg.services.account.signIn(server.t.baseUrl, u.token);
  await bg.idle();
  bg.requests.length = 0;
}

beforeEach(async () => {
  fakeBrowser.reset();
  bg = createTestBackground();
  setRuntime(bg.runtime);
  user = userEvent.setup();
  // Each test starts with the heavy-endpoint minute behind it.
  await server.t.advance(2 * MINUTE);
  await signIn();
});
afterEach(async () => {
  cleanup();
  await bg.idle();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function show(Section: ComponentType): void {
  const client = libraryQueryClient();
  render(
    <QueryClientProvider client={client}>
      <Section />
    </QueryClientProvider>,
  );
}

const requested = (pattern: RegExp) => bg.requests.filter((r) => pattern.test(`${r.method} ${new URL(r.url).pathname}`));
const now = () => server.t.server.deps.clock.now();

describe('options: smart folders', () => {
  it('builds a folder of three conditions, checking it as the server does before anything is sent', async () => {
    show(SmartFoldersSection);
    await user.click(await screen.findByRole('button', { name: 'New smart folder' }));
    const form = screen.getByRole('form', { name: 'New smart folder' });
    await user.click(within(form).getByRole('button', { name: 'Create smart folder' }));
    // The schema's own messages, on the field they belong to; nothing went to the server.
    expect(within(form).getByText('Name must not be empty')).toBeTruthy();
    expect(within(form).getByText(/Condition 1: Value must name a tag/)).toBeTruthy();
    expect(within(form).getByRole('textbox', { name: 'Condition 1 value' }).getAttribute('aria-invalid')).toBe('true');
    expect(requested(/POST \/v1\/smart-folders/)).toHaveLength(0);

    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Reading list');
    await user.type(within(form).getByRole('textbox', { name: 'Condition 1 value' }), 'news');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Condition 1 operator' }), 'contains');
    await user.click(within(form).getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Condition 2 field' }), 'domain');
    await user.type(within(form).getByRole('textbox', { name: 'Condition 2 value' }), 'https://WWW.Example.com/path');
    await user.click(within(form).getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Condition 3 field' }), 'clickCount');
    // Only the operators the API allows for the field.
    const operator = within(form).getByRole('combobox', { name: 'Condition 3 operator' });
    expect(within(operator).getAllByRole('option').map((o) => o.textContent)).toEqual(['at least', 'at most']);
    await user.selectOptions(operator, 'lte');
    await user.type(within(form).getByRole('spinbutton', { name: 'Condition 3 value' }), '3');
    await user.click(within(form).getByRole('radio', { name: 'any condition holds' }));
    await user.click(within(form).getByRole('button', { name: 'Create smart folder' }));

    const list = await screen.findByRole('list', { name: 'Smart folders' });
    expect(await within(list).findByText('Reading list')).toBeTruthy();
    expect(within(list).getByText('3 conditions, any must hold')).toBeTruthy();
    const stored = dataOf(await u.api('GET', '/smart-folders'), z.array(SmartFolder));
    expect(stored.map((f) => f.rules)).toEqual([
      {
        match: 'any',
        conditions: [
          { field: 'tag', operator: 'contains', value: 'news' },
          { field: 'domain', operator: 'equals', value: 'example.com' },
          { field: 'clickCount', operator: 'lte', value: '3' },
        ],
      },
    ]);
  });

  it('asks for dates and counts in its own words and sends them as the API wants them', async () => {
    show(SmartFoldersSection);
    await user.click(await screen.findByRole('button', { name: 'New smart folder' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Recent');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Condition 1 field' }), 'createdAfter');
    // One operator: no operator box to choose from.
    expect(screen.queryByRole('combobox', { name: 'Condition 1 operator' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Condition 2 field' }), 'clickCount');
    await user.type(screen.getByRole('spinbutton', { name: 'Condition 2 value' }), '-1');
    await user.click(screen.getByRole('button', { name: 'Create smart folder' }));
    expect(screen.getByText('Condition 1: Choose a date')).toBeTruthy();
    expect(screen.getByText('Condition 2: Value must be a whole number, 0 or more')).toBeTruthy();
    expect(requested(/POST \/v1\/smart-folders/)).toHaveLength(0);

    await user.type(screen.getByLabelText('Condition 1 value'), '2026-03-01');
    await user.clear(screen.getByRole('spinbutton', { name: 'Condition 2 value' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Condition 2 value' }), '2');
    await user.click(screen.getByRole('button', { name: 'Create smart folder' }));
    expect(await screen.findByText('Saved “Recent”.')).toBeTruthy();
    const [folder] = dataOf(await u.api('GET', '/smart-folders'), z.array(SmartFolder));
    expect(folder!.rules.conditions).toEqual([
      { field: 'createdAfter', operator: 'equals', value: String(new Date('2026-03-01T00:00:00').getTime()) },
      { field: 'clickCount', operator: 'gte', value: '2' },
    ]);
  });

  it('offers at most ten conditions', async () => {
    show(SmartFoldersSection);
    await user.click(await screen.findByRole('button', { name: 'New smart folder' }));
    const add = screen.getByRole('button', { name: 'Add condition' });
    for (let i = 1; i < 10; i++) await user.click(add);
    expect(screen.getAllByRole('group', { name: /^Condition \d+$/ })).toHaveLength(10);
    expect(add).toHaveProperty('disabled', true);
    expect(screen.getByText('A smart folder holds at most 10 conditions.')).toBeTruthy();
  });

  it('edits a folder’s rules and deletes it after a confirmation that returns focus when cancelled', async () => {
    await createFolder(u, { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'old' }] }, 'Topic');
    show(SmartFoldersSection);
    await user.click(await screen.findByRole('button', { name: 'Edit Topic' }));
    const value = screen.getByRole('textbox', { name: 'Condition 1 value' });
    await user.clear(value);
    await user.type(value, 'new');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved “Topic”.')).toBeTruthy();
    const [folder] = dataOf(await u.api('GET', '/smart-folders'), z.array(SmartFolder));
    expect(folder!.rules.conditions).toEqual([{ field: 'tag', operator: 'equals', value: 'new' }]);

    const del = screen.getByRole('button', { name: 'Delete Topic' });
    await user.click(del);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete “Topic”?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    // Tab stays inside the dialog, wrapping both ways.
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Delete smart folder' }));
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Delete smart folder' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(del);

    await user.click(del);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete smart folder' }));
    expect(await screen.findByText('No smart folders yet.')).toBeTruthy();
    expect(dataOf(await u.api('GET', '/smart-folders'), z.array(SmartFolder))).toEqual([]);
  });

  it('previews the first matches on request only, within the heavy budget it shares with the side panel, and says when the next is possible', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const ids = insertBookmarks(server.t, server.db, u.userId, Array.from({ length: 15 }, (_, i) => ({ createdAt: now() - i * 1000, tags: ['deep'] })));
    await createFolder(u, { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'deep' }] }, 'Deep');
    const evaluations = () => requested(/GET \/v1\/smart-folders\/[^/]+\/bookmarks/);
    show(SmartFoldersSection);
    await screen.findByText('Deep');
    expect(evaluations()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Preview Deep' }));
    const preview = await screen.findByRole('list', { name: 'First matches of Deep' });
    expect(within(preview).getAllByRole('link')).toHaveLength(10);
    expect(within(preview).getByRole('link', { name: `Title ${ids[0]}` })).toBeTruthy();
    expect(evaluations()).toHaveLength(1);

    // The side panel already spent the other request of this minute.
    await bg.services.smartFolders.evaluate(dataOf(await u.api('GET', '/smart-folders'), z.array(SmartFolder))[0]!.id, true);
    await user.click(screen.getByRole('button', { name: 'Preview matches' }));
    expect(await screen.findByText(/you can preview again in \d+ s/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Preview matches' })).toHaveProperty('disabled', true);
    expect(evaluations()).toHaveLength(2);

    await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Preview matches' })).toHaveProperty('disabled', false));
    await user.click(screen.getByRole('button', { name: 'Preview matches' }));
    await waitFor(() => expect(evaluations()).toHaveLength(3));
    // Every evaluation a request for the first page: a preview never walks the cursor on its own.
    expect(evaluations().every((r) => !r.url.includes('cursor='))).toBe(true);
  });

  it('without bookmarks:write, shows the folders and previews but explains why it offers no changes', async () => {
    await createFolder(u, { match: 'all', conditions: [{ field: 'isFavorite', operator: 'equals', value: 'true' }] }, 'Stars');
    // The same user, signed in with a token that may only read.
    const { token } = await issueToken(server.t.server.deps.store.accounts, { userId: u.userId, name: 'read', scopes: ['bookmarks:read'], expiresAt: null }, now());
    await bg.services.account.signIn(server.t.baseUrl, token);
    show(SmartFoldersSection);
    expect(await screen.findByText('Stars')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New smart folder' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Stars' })).toBeNull();
    expect(screen.getByText(/Creating, changing and deleting smart folders are not offered/).textContent).toContain('bookmarks:write');
  });
});

describe('options: trash', () => {
  it('lists the trash a page at a time, virtualised, and restores a bookmark', async () => {
    const ids = insertBookmarks(server.t, server.db, u.userId, Array.from({ length: 150 }, (_, i) => ({ createdAt: now() - i * 1000, trashed: true })));
    show(TrashSection);
    const list = await screen.findByRole('list', { name: 'Trashed bookmarks' });
    expect(await within(list).findAllByText(/^Title bm_/)).not.toHaveLength(0);
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
    expect(requested(/GET \/v1\/bookmarks\/trash/)[0]!.url).toContain('limit=100');

    const title = within(list).getAllByText(/^Title bm_/)[0]!.textContent!;
    const id = title.replace('Title ', '');
    expect(ids).toContain(id);
    await user.click(within(list).getByRole('button', { name: `Restore ${title}` }));
    expect(await screen.findByText(`Restored “${title}”.`)).toBeTruthy();
    expect(dataOf(await u.api('GET', `/bookmarks/${id}`), Bookmark).deletedAt).toBeNull();
    expect(within(list).queryByText(title)).toBeNull();
  });

  it('with the destructive scope, deletes one for good and empties the trash, each after a confirmation', async () => {
    const [first, second] = insertBookmarks(server.t, server.db, u.userId, [
      { createdAt: now(), trashed: true },
      { createdAt: now() - 1000, trashed: true },
      { createdAt: now() - 2000, trashed: true },
    ]);
    show(TrashSection);
    await user.click(await screen.findByRole('button', { name: `Delete for good: Title ${first}` }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this bookmark for good?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect(await screen.findByText(`Deleted “Title ${first}” for good.`)).toBeTruthy();
    expect((await u.api('GET', `/bookmarks/${first}`)).status).toBe(404);

    await user.click(screen.getByRole('button', { name: 'Empty trash' }));
    // Cancel is the first choice: Enter on the dialog as it opens changes nothing.
    await user.keyboard('{Enter}');
    expect((await u.api('GET', `/bookmarks/${second}`)).status).toBe(200);
    await user.click(screen.getByRole('button', { name: 'Empty trash' }));
    const emptying = screen.getByRole('alertdialog', { name: 'Empty the trash?' });
    // What goes with the bookmarks is what Shelf keeps: no highlights, which it does not have.
    expect(emptying.textContent).toContain('Every bookmark in the trash is deleted for good, with its tags, note and cover. This cannot be undone.');
    await user.click(within(emptying).getByRole('button', { name: 'Empty trash' }));
    expect(await screen.findByText('Emptied the trash: 2 bookmarks deleted for good.')).toBeTruthy();
    expect(await screen.findByText('The trash is empty.')).toBeTruthy();
  });

  it('without the destructive scope, offers restore only, explains why, and never sends a permanent delete', async () => {
    await signIn(['bookmarks:write']);
    const [id] = insertBookmarks(server.t, server.db, u.userId, [{ createdAt: now(), trashed: true }]);
    show(TrashSection);
    expect(await screen.findByRole('button', { name: `Restore Title ${id}` })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Empty trash' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete for good/ })).toBeNull();
    expect(screen.getByText(/emptying the trash are not offered/).textContent).toContain('destructive');
    // A local server has no API Tokens settings: the way to a token with that scope is its admin command.
    expect(screen.queryByText(/API Tokens settings/)).toBeNull();
    expect(screen.getAllByText(/token create --user /)[0]!.textContent).toContain(`--user ${u.userId}`);
    expect(requested(/DELETE/)).toHaveLength(0);
  });

  it('a token that expired says so and leads to the Account section to sign in again', async () => {
    await signIn(undefined, now() + MINUTE);
    await server.t.advance(2 * MINUTE);
    show(TrashSection);
    expect((await screen.findByRole('alert')).textContent).toContain('This API token has expired.');
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('#account');
  });
});

describe('options: import and export', () => {
  /** The file the page hands the browser to save, read back. */
  function captureDownloads(): { name: string; text: Promise<string> }[] {
    const saved: { name: string; text: Promise<string> }[] = [];
    const blobs = new Map<string, Blob>();
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      const url = `blob:shelf/${blobs.size}`;
      blobs.set(url, blob as Blob);
      return url;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, text: blobs.get(this.href)!.text() });
    });
    return saved;
  }

  it('exports as JSON with a progress bar and downloads the file when done', async () => {
    const [id] = insertBookmarks(server.t, server.db, u.userId, [{ createdAt: now() }]);
    const saved = captureDownloads();
    show(TransferSection);
    await user.click(await screen.findByRole('radio', { name: /^JSON/ }));
    await user.click(screen.getByRole('button', { name: 'Export library' }));
    expect(await screen.findByRole('progressbar', { name: 'Export progress' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: /^shelf-export-.*\.json$/ }, { timeout: 10_000 });
    expect(screen.getByRole('progressbar', { name: 'Export progress' }).getAttribute('aria-valuenow')).toBe('100');
    expect(saved).toHaveLength(1);
    expect(saved[0]!.name).toBe(link.textContent);
    expect(await saved[0]!.text).toContain(`https://example.com/${id}`);
  });

  it('imports a browser’s file: one job, its progress, a summary, and its folders as collections', async () => {
    show(TransferSection);
    const file = new File([new Uint8Array(Buffer.from(FIXTURE.content))], FIXTURE.name, { type: 'text/html' });
    await user.upload(await screen.findByLabelText('File to import'), file);
    await user.click(screen.getByRole('button', { name: 'Import file' }));
    const summary = new RegExp(`^Imported ${FIXTURE.bookmarks.length} bookmarks; 0 were already in your library`);
    expect(await screen.findByText(summary, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Import progress' }).getAttribute('aria-valuenow')).toBe('100');
    expect(requested(/POST \/v1\/import\/reserve/)).toHaveLength(1);
    expect(requested(/POST \/storage\/uploads\//)).toHaveLength(1);
    expect(requested(/POST \/v1\/import\/start/)).toHaveLength(1);
    const names = dataOf(await u.api('GET', '/collections'), z.array(Collection)).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(FIXTURE.collections.map((path) => path.at(-1))));
  });

  /** The same file three times within the minute: the budget (two a minute) refuses the third, which waits instead of failing. */
  async function importThrice(): Promise<void> {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    show(TransferSection);
    const file = new File([new Uint8Array(Buffer.from(FIXTURE.content))], FIXTURE.name, { type: 'text/html' });
    await user.upload(await screen.findByLabelText('File to import'), file);
    await user.click(screen.getByRole('button', { name: 'Import file' }));
    expect(await screen.findByText(/^Imported \d+ bookmarks; 0 were/, undefined, { timeout: 10_000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Import file' }));
    expect(await screen.findByText(/^Imported 0 bookmarks; \d+ were already/, undefined, { timeout: 10_000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Import file' }));
  }

  it('an import refused for the heavy-endpoint budget counts down and starts by itself when its turn comes', async () => {
    await importThrice();
    expect(await screen.findByText(/Your import waits for its turn/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Import file' })).toHaveProperty('disabled', true);
    const secondsLeft = () => Number(/^Starts in (\d+) seconds?\.$/.exec(screen.getByText(/^Starts in/).textContent ?? '')?.[1]);
    const first = secondsLeft();
    expect(first).toBeGreaterThan(10);
    expect(first).toBeLessThanOrEqual(HEAVY_WINDOW / 1000);
    await vi.advanceTimersByTimeAsync(10_000);
    await waitFor(() => expect(secondsLeft()).toBeLessThanOrEqual(first - 9));
    const reserves = requested(/POST \/v1\/import\/reserve/).length;

    await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
    expect(await screen.findByText(/^Imported 0 bookmarks; \d+ were already in your library/, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText(/^Starts in/)).toBeNull();
    expect(requested(/POST \/v1\/import\/start/)).toHaveLength(3);
    expect(requested(/POST \/v1\/import\/reserve/).length).toBe(reserves + 1);
  });

  it('a waiting import can be cancelled: nothing more is sent', async () => {
    await importThrice();
    await user.click(await screen.findByRole('button', { name: 'Cancel import' }));
    expect(screen.queryByText(/Your import waits for its turn/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Import file' })).toHaveProperty('disabled', false);
    const sent = bg.requests.length;
    await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
    await bg.idle();
    expect(bg.requests.length).toBe(sent);
  });

  it('refuses a file over 5 MB or an empty one before sending anything', async () => {
    show(TransferSection);
    const input = await screen.findByLabelText('File to import');
    await user.upload(input, new File(['x'.repeat(5 * 1024 * 1024 + 1)], 'huge.html'));
    await user.click(screen.getByRole('button', { name: 'Import file' }));
    expect(screen.getByText(/huge\.html is larger than 5 MB/)).toBeTruthy();
    await user.upload(input, new File([''], 'empty.csv'));
    await user.click(screen.getByRole('button', { name: 'Import file' }));
    expect(screen.getByText('empty.csv is empty.')).toBeTruthy();
    expect(requested(/import/)).toHaveLength(0);
  });

  it('imports the browser’s own bookmarks in one job after asking for the permission, folders becoming collections', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    const remove = vi.spyOn(fakeBrowser.permissions, 'remove').mockResolvedValue(true);
    const getTree = vi.spyOn(fakeBrowser.bookmarks, 'getTree').mockResolvedValue([
      {
        id: '0',
        title: '',
        children: [
          {
            id: '1',
            title: 'Bookmarks bar',
            children: [
              { id: '3', title: 'Recipes & more', children: [{ id: '4', title: 'Bread <best>', url: 'https://bread.example/' }] },
              { id: '5', title: 'News', url: 'https://news.example/', dateAdded: 1_600_000_000_000 },
            ],
          },
          { id: '2', title: 'Other bookmarks', children: [{ id: '6', title: 'Docs', url: 'https://docs.example/' }] },
        ],
      },
    ]);
    show(TransferSection);
    await user.click(await screen.findByRole('button', { name: 'Import this browser’s bookmarks' }));
    expect(await screen.findByText(/^Imported 3 bookmarks/, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(request).toHaveBeenCalledWith({ permissions: ['bookmarks'] });
    // Given back once the tree is read, before the job starts: the job needs only the file.
    expect(remove).toHaveBeenCalledExactlyOnceWith({ permissions: ['bookmarks'] });
    expect(remove.mock.invocationCallOrder[0]).toBeGreaterThan(getTree.mock.invocationCallOrder[0]!);
    expect(requested(/POST \/v1\/import\/start/)).toHaveLength(1);
    expect(requested(/POST \/v1\/bookmarks/)).toHaveLength(0);
    const collections = dataOf(await u.api('GET', '/collections'), z.array(Collection));
    const bar = collections.find((c) => c.name === 'Bookmarks bar');
    expect(collections.find((c) => c.name === 'Recipes & more')?.parentId).toBe(bar?.id);
    expect(collections.map((c) => c.name)).toContain('Other bookmarks');
    const titles = dataOf(await u.api('GET', '/bookmarks/search?q=bread'), z.array(Bookmark)).map((b) => b.title);
    expect(titles).toEqual(['Bread <best>']);
  });

  it('gives the permission back when the bookmarks cannot be read, and sends nothing', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    const remove = vi.spyOn(fakeBrowser.permissions, 'remove').mockResolvedValue(true);
    vi.spyOn(fakeBrowser.bookmarks, 'getTree').mockRejectedValue(new Error('bookmarks unavailable'));
    show(TransferSection);
    await user.click(await screen.findByRole('button', { name: 'Import this browser’s bookmarks' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(remove).toHaveBeenCalledExactlyOnceWith({ permissions: ['bookmarks'] });
    expect(requested(/import/)).toHaveLength(0);
  });

  it.each([
    ['refused', () => Promise.resolve(false)],
    // Firefox rejects a request made outside a click ("may only be called from a user input handler").
    ['rejected', () => Promise.reject(new Error('permissions.request may only be called from a user input handler'))],
  ])('asks nothing of the server when the permission is %s, and says so in words about the bookmarks', async (_, answer) => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(answer);
    show(TransferSection);
    await user.click(await screen.findByRole('button', { name: 'Import this browser’s bookmarks' }));
    const alert = (await screen.findByRole('alert')).textContent;
    expect(alert).toContain('Shelf was not allowed to read this browser’s bookmarks, so nothing was imported.');
    expect(alert).toContain('Click Import this browser’s bookmarks again and allow access when your browser asks.');
    expect(requested(/import/)).toHaveLength(0);
  });

  it('without the opt-in scopes, explains why neither is offered', async () => {
    await signIn(['bookmarks:write']);
    show(TransferSection);
    expect((await screen.findByText(/Exporting the library is not offered/)).textContent).toContain('export');
    expect(screen.getByText(/Importing bookmarks is not offered/).textContent).toContain('import');
    expect(screen.queryByRole('button', { name: 'Export library' })).toBeNull();
  });
});

describe('browser bookmarks as a Netscape file', () => {
  it('escapes titles and URLs and nests folders', () => {
    const html = toNetscapeHtml([{ title: '', children: [{ title: 'A & B', children: [{ title: '"q" <x>', url: 'https://x.example/?a=1&b="2"', dateAdded: 2000 }] }] }]);
    expect(html).toContain('<DT><H3>A &amp; B</H3>');
    expect(html).toContain('<DT><A HREF="https://x.example/?a=1&amp;b=&quot;2&quot;" ADD_DATE="2">&quot;q&quot; &lt;x&gt;</A>');
    expect(html.indexOf('<DL><p>', html.indexOf('A &amp; B'))).toBeLessThan(html.indexOf('x.example'));
  });
});
