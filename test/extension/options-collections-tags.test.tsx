// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import type { ComponentType } from 'react';
import * as z from 'zod/mini';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setRuntime } from '../../components/messenger.ts';
import { CollectionsSection } from '../../components/options/collections/CollectionsSection.tsx';
import { TagsSection } from '../../components/options/tags/TagsSection.tsx';
import { readOpening } from '../../entrypoints/options/opening.ts';
import { Collection } from '../../lib/api/collections.ts';
import type { Scope } from '../../lib/api/scopes.ts';
import { collectionsCacheItem } from '../../lib/storage/items.ts';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf } from '../support/expect.ts';
import { type TestUser } from '../support/server.ts';
import { insertBookmarks } from '../server/smart-folders-fixtures.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';
import { libraryPageServer } from './support/library-page.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

const server = libraryPageServer({ width: 480, height: 480 });
let bg: TestBackground;
let u: TestUser;
let user: UserEvent;


async function signIn(scopes?: Scope[]): Promise<void> {
  fakeBrowser.reset();
  bg = createTestBackground();
  setRuntime(bg.runtime);
  user = userEvent.setup();
  u = await server.t.user(scopes ? { scopes } : {});
  await server.t.advance(2 * 60_000); // a fresh minute of the server's rate limit for each test
  await bg.services.account.signIn(server.t.baseUrl, u.token);
  await bg.idle();
  bg.requests.length = 0;
}

beforeEach(() => signIn());
afterEach(async () => {
  cleanup();
  await bg.idle();
});

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

function open(Section: ComponentType, client = newClient()): void {
  render(
    <QueryClientProvider client={client}>
      <Section />
    </QueryClientProvider>,
  );
}

const requested = (pattern: RegExp) => bg.requests.filter((r) => pattern.test(`${r.method} ${new URL(r.url).pathname}`));

async function collection(name: string, parentId?: string): Promise<Collection> {
  return dataOf(await u.api('POST', '/collections', { body: { name, ...(parentId && { parentId }) } }), Collection, 201);
}
async function serverCollections(): Promise<Collection[]> {
  return dataOf(await u.api('GET', '/collections'), z.array(Collection));
}
async function serverTags(): Promise<Tag[]> {
  return dataOf(await u.api('GET', '/tags'), z.array(Tag));
}
function bookmarks(count: number, extra: { collectionId?: string; tags?: string[] } = {}): string[] {
  const now = server.t.server.deps.clock.now();
  return insertBookmarks(server.t, server.db, u.userId, Array.from({ length: count }, (_, i) => ({ createdAt: now - i * 1000, ...extra })));
}

const tree = (name: string) => screen.getByRole('tree', { name });
/** The rows as read: the open/closed arrow is only drawn (aria-expanded says it). */
const rowTexts = (name: string) => within(tree(name)).getAllByRole('treeitem').map((r) => r.textContent?.replace(/^[▾▸]/, ''));
const item = (name: RegExp) => within(tree('Collections')).getByRole('treeitem', { name });

describe('options: Collections', () => {
  it('shows the nested tree with counts, creates at the top and inside, and a rename shows at once and in the background’s kept list', async () => {
    const work = await collection('Work');
    await collection('Clients', work.id);
    bookmarks(3, { collectionId: work.id });
    open(CollectionsSection);

    const workRow = await screen.findByRole('treeitem', { name: /^Work\s*3 bookmarks$/ });
    expect(workRow.getAttribute('aria-level')).toBe('1');
    expect(workRow.getAttribute('aria-expanded')).toBe('true');
    expect(item(/^Clients/).getAttribute('aria-level')).toBe('2');

    // The create held at the server's door until the user has begun the next name: that name stays in the field.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const send = globalThis.fetch;
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (init?.method === 'POST' && String(input).endsWith('/collections')) await held;
      return send(input, init);
    });
    await user.type(screen.getByLabelText('New collection'), 'Reading');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await user.type(screen.getByLabelText('New collection'), '{Control>}a{/Control}Archi');
    release();
    // Made: the new collection is chosen and its details shown.
    await screen.findByRole('region', { name: 'Collection Reading' });
    fetchSpy.mockRestore();
    expect((screen.getByLabelText('New collection') as HTMLInputElement).value).toBe('Archi');
    await user.clear(screen.getByLabelText('New collection'));

    await user.click(workRow);
    const details = screen.getByRole('region', { name: 'Collection Work' });
    await user.type(within(details).getByLabelText(/New collection inside/), 'Archive');
    await user.click(within(details).getByRole('button', { name: 'Create inside' }));
    await waitFor(() => expect(item(/^Archive/).getAttribute('aria-level')).toBe('2'));

    const name = within(details).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Job');
    await user.type(within(details).getByLabelText('Icon or emoji'), '💼');
    await user.click(within(details).getByRole('button', { name: 'Save' }));
    await screen.findByRole('treeitem', { name: /^💼 Job/ });
    await waitFor(async () => expect((await serverCollections()).find((c) => c.id === work.id)).toMatchObject({ name: 'Job', icon: '💼' }), POLL_SERVER);

    // The popup's picker reads the background's kept list: it has the new name without asking the server.
    await bg.idle();
    bg.requests.length = 0;
    expect((await bg.handlers.listCollections({})).map((c) => c.name).sort()).toEqual(['Archive', 'Clients', 'Job', 'Reading']);
    expect(bg.requests).toEqual([]);
  });

  it('moves a collection with the keyboard through “Move to…”, offering only places the server accepts, and returns the focus', async () => {
    const work = await collection('Work');
    const clients = await collection('Clients', work.id);
    await collection('Home');
    open(CollectionsSection);

    const workRow = await screen.findByRole('treeitem', { name: /^Work/ });
    workRow.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(item(/^Clients/));
    await user.keyboard('{ArrowLeft}'); // to the parent
    expect(document.activeElement).toBe(item(/^Work/));
    await user.keyboard('{ArrowLeft}'); // closes it
    expect(item(/^Work/).getAttribute('aria-expanded')).toBe('false');
    expect(within(tree('Collections')).queryByRole('treeitem', { name: /^Clients/ })).toBeNull();
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(document.activeElement).toBe(item(/^Clients/));

    const moveButton = screen.getByRole('button', { name: 'Move to…' });
    moveButton.focus();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Move “Clients”' });
    const places = within(dialog).getAllByRole('treeitem').map((row) => row.textContent?.replace(/^[▾▸]/, ''));
    // Not its own parent, not itself: the top level and Home.
    expect(places).toEqual(['Top level', 'Home']);
    await user.click(within(dialog).getByRole('treeitem', { name: /Home/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(moveButton);
    await waitFor(async () => expect((await serverCollections()).find((c) => c.id === clients.id)?.parentId).not.toBe(work.id), POLL_SERVER);
    const home = (await serverCollections()).find((c) => c.name === 'Home')!;
    expect((await serverCollections()).find((c) => c.id === clients.id)?.parentId).toBe(home.id);
  });

  it('deletes with a warning naming what goes with it, lists it in the trash and restores it', async () => {
    const work = await collection('Work');
    await collection('Clients', work.id);
    await collection('Drafts', work.id);
    bookmarks(2, { collectionId: work.id });
    open(CollectionsSection);

    await user.click(await screen.findByRole('treeitem', { name: /^Work/ }));
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Work”?' });
    expect(dialog.textContent).toContain('“Work” goes to the trash with 2 collections inside it and 2 bookmarks.');
    await user.click(within(dialog).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(within(tree('Collections')).queryAllByRole('treeitem')).toHaveLength(0));
    expect(await serverCollections()).toEqual([]);

    const trashed = screen.getByRole('list', { name: 'Collections in the trash' });
    await within(trashed).findByText('Work');
    await user.click(within(trashed).getByRole('button', { name: 'Restore Work' }));
    await screen.findByRole('treeitem', { name: /^Work\s*2 bookmarks/ });
    await waitFor(() => expect(within(trashed).queryByText('Work')).toBeNull());
    expect((await serverCollections()).map((c) => c.name).sort()).toEqual(['Clients', 'Drafts', 'Work']);
  });

  it('on COLLECTION_TOO_LARGE leads through the spec’s way out (move the bookmarks elsewhere, try again), never emptying the trash', async () => {
    const big = await collection('Big');
    const inside = await collection('Inside', big.id);
    bookmarks(1000, { collectionId: big.id });
    bookmarks(5, { collectionId: inside.id });
    const other = await collection('Other');
    open(CollectionsSection);

    await user.click(await screen.findByRole('treeitem', { name: /^Big/ }));
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Big”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Move to trash' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('too large to move to the trash at once');
    expect(alert.textContent).toContain('Emptying the trash does not help');
    // Nothing went: the row came back.
    await screen.findByRole('treeitem', { name: /^Big/ });
    expect(within(alert).getByRole('button', { name: 'Trash “Inside”' })).toBeTruthy();

    await user.selectOptions(within(alert).getByLabelText(/Or move its 1000 bookmarks to/), other.id);
    await user.click(within(alert).getByRole('button', { name: 'Move the bookmarks' }));
    await waitFor(() => expect(alert.textContent).toContain('Moved 1000 bookmarks: try again now.'), { timeout: 20_000 });
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await serverCollections()).map((c) => [c.name, c.bookmarkCount])).toEqual([['Other', 1000]]);
    expect(requested(/^DELETE \/v1\/bookmarks\/trash$/)).toEqual([]);
  }, 60_000);

  it('a trashed collection too large to restore gets the spec’s steps (restore some bookmarks first, then move them back), not an emptied trash', async () => {
    const big = await collection('Big');
    bookmarks(990, { collectionId: big.id });
    dataOf(await u.api('DELETE', `/collections/${big.id}`), z.object({ id: z.string() }));
    // Trashed on their own before: they count toward the restore, as the server counts every bookmark of the collection.
    const now = server.t.server.deps.clock.now();
    insertBookmarks(server.t, server.db, u.userId, Array.from({ length: 20 }, (_, i) => ({ createdAt: now - i, collectionId: big.id, trashed: true })));
    open(CollectionsSection);

    const trashed = screen.getByRole('list', { name: 'Collections in the trash' });
    await user.click(await within(trashed).findByRole('button', { name: 'Restore Big' }));
    const alert = await within(trashed).findByRole('alert');
    expect(alert.textContent).toContain('“Big” is too large to restore at once');
    expect(alert.textContent).toContain('restore some of its bookmarks: they come back to Unsorted.');
    expect(alert.textContent).toContain('Do not empty the trash for this');
    expect(within(alert).getByRole('link', { name: 'Trash' }).getAttribute('href')).toBe('#trash');
    expect(requested(/^DELETE \/v1\/bookmarks\/trash$/)).toEqual([]);
    expect(await serverCollections()).toEqual([]);
  });

  it('moves a collection by dragging it onto another, and ignores a drop inside its own branch', async () => {
    const work = await collection('Work');
    const clients = await collection('Clients', work.id);
    const home = await collection('Home');
    open(CollectionsSection);
    const drag = (from: HTMLElement, to: HTMLElement) => {
      const data = new DataTransfer();
      fireEvent.dragStart(from, { dataTransfer: data });
      fireEvent.dragOver(to, { dataTransfer: data });
      fireEvent.drop(to, { dataTransfer: data });
    };
    drag(await screen.findByRole('treeitem', { name: /^Work/ }), item(/^Clients/));
    drag(item(/^Clients/), item(/^Home/));
    await waitFor(async () => expect((await serverCollections()).find((c) => c.id === clients.id)?.parentId).toBe(home.id), POLL_SERVER);
    expect((await serverCollections()).find((c) => c.id === work.id)?.parentId).toBeNull();
    expect(requested(/^PATCH /)).toHaveLength(1);
  });

  it('shares a collection with its public link to copy, and stops sharing it', async () => {
    await collection('Public');
    open(CollectionsSection);
    await user.click(await screen.findByRole('treeitem', { name: /^Public/ }));
    const share = await screen.findByRole('checkbox', { name: 'Share on a public, read-only page' });
    expect((share as HTMLInputElement).checked).toBe(false);
    await user.click(share);
    const link = (await screen.findByRole('textbox', { name: 'Public link' })) as HTMLInputElement;
    await waitFor(() => expect((share as HTMLInputElement).disabled).toBe(false));
    expect(link.value).toMatch(new RegExp(`^${new URL(server.t.baseUrl).origin}/shared/[\\w-]+$`));
    expect((await fetch(link.value)).status).toBe(200);
    await user.click(screen.getByRole('checkbox', { name: 'Share on a public, read-only page' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Public link' })).toBeNull());
    expect((await fetch(link.value)).status).toBe(404);
  });

  it('without collections:write offers no change and says why, and sends no write request', async () => {
    await signIn(['collections:read', 'bookmarks:read']);
    server.db.prepare("INSERT INTO collections (id, user_id, name, parent_id, sort_order, share_slug, created_at, updated_at) VALUES ('col_ro', ?, 'Read only', NULL, 0, 'slug-ro', 0, 0)").run(u.userId);
    open(CollectionsSection);
    await user.click(await screen.findByRole('treeitem', { name: /^Read only/ }));
    expect(screen.getByText(/lacks the collections:write scope/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete…' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move to…' })).toBeNull();
    expect((screen.getByLabelText('Name') as HTMLInputElement).disabled).toBe(true);
    expect(bg.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('shows 1,000 collections virtualised, and the filter finds one with its ancestors', async () => {
    const parents = server.db.prepare('INSERT INTO collections (id, user_id, name, icon, color, parent_id, sort_order, share_slug, created_at, updated_at) VALUES (?, ?, ?, \'\', \'\', ?, ?, ?, 0, 0)');
    server.db.transaction(() => {
      for (let i = 0; i < 100; i++) {
        parents.run(`col_p${i}`, u.userId, `Parent ${i}`, null, i, `slug-p${i}-${u.userId}`);
        for (let j = 0; j < 9; j++) parents.run(`col_c${i}_${j}`, u.userId, `Child ${i}.${j}`, `col_p${i}`, j, `slug-c${i}-${j}-${u.userId}`);
      }
    })();
    open(CollectionsSection);
    // A thousand collections listed, checked and laid out: more than the 5 s of other waits on a loaded machine.
    await screen.findByRole('treeitem', { name: /^Parent 0\b/ }, { timeout: 15_000 });
    expect(within(tree('Collections')).getAllByRole('treeitem').length).toBeLessThan(60);

    await user.type(screen.getByLabelText('Filter collections'), 'Child 73.4');
    await waitFor(() => expect(rowTexts('Collections')).toEqual(['Parent 730 bookmarks', 'Child 73.40 bookmarks']));
  });
});

describe('options: Collections, opened at options.html#collections', () => {
  /** The options page's opening (entrypoints/options/main.tsx) with `items` as the background's kept list. */
  async function openWithKept(items: unknown[]): Promise<void> {
    await fakeBrowser.storage.local.set({ collectionsCache: JSON.stringify({ items, fetchedAt: server.t.server.deps.clock.now() }) });
    const client = newClient();
    await readOpening(client, { location: { hash: '#collections' } } as Window);
    open(CollectionsSection, client);
  }

  it('draws the kept tree in its first render, and refuses a kept list whose other fields do not fit, asking the server again', async () => {
    const work = await collection('Work');
    await openWithKept([{ ...work, name: 'Kept work', createdAt: 7 }]);

    // No waiting: the first render holds the tree.
    expect(item(/^Kept work/)).toBeTruthy();
    expect(screen.queryByText('Loading collections…')).toBeNull();
    await screen.findByRole('treeitem', { name: /^Work/ });
    expect(requested(/^GET \/v1\/collections$/).length).toBeGreaterThan(0);
    await user.click(item(/^Work/));
    expect(screen.getByRole('region', { name: 'Collection Work' })).toBeTruthy();
    expect((await collectionsCacheItem.get())?.items.map((c) => c.name)).toEqual(['Work']);
  });

  it('opens on no tree when a tree field of the kept list does not fit, then shows the server’s', async () => {
    const work = await collection('Work');
    await openWithKept([{ ...work, name: 42 }]);

    expect(screen.getByText('Loading collections…')).toBeTruthy();
    expect(await screen.findByRole('treeitem', { name: /^Work/ })).toBeTruthy();
    expect((await collectionsCacheItem.get())?.items.map((c) => c.name)).toEqual(['Work']);
  });
});

const tagItem = (name: RegExp) => within(tree('Tags')).getByRole('treeitem', { name });

describe('options: Tags', () => {
  it('shows the hierarchy with counts, creates a nested tag, and a rename reaches its children and the background’s kept list', async () => {
    dataOf(await u.api('POST', '/tags', { body: { name: 'work/clients' } }), Tag, 201);
    bookmarks(2, { tags: ['work/clients'] });
    bookmarks(1, { tags: ['work'] });
    open(TagsSection);

    const work = await screen.findByRole('treeitem', { name: /^work\s*1 bookmark$/ });
    expect(work.getAttribute('aria-expanded')).toBe('true');
    expect(tagItem(/^clients\s*2 bookmarks$/).getAttribute('aria-level')).toBe('2');

    await user.type(screen.getByLabelText(/New tag/), 'work/drafts');
    await user.type(screen.getByLabelText('Colour'), '#16a34a');
    await user.click(screen.getByRole('button', { name: 'Create tag' }));
    await screen.findByRole('treeitem', { name: /^drafts/ });
    expect((await serverTags()).find((tag) => tag.name === 'work/drafts')?.color).toBe('#16a34a');

    await user.click(tagItem(/^work/));
    const name = screen.getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'job');
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    await screen.findByRole('treeitem', { name: /^job/ });
    await waitFor(async () => expect((await serverTags()).map((tag) => tag.name).sort()).toEqual(['job', 'job/clients', 'job/drafts']), POLL_SERVER);
    await bg.idle();
    expect((await bg.handlers.listTags({})).map((tag) => tag.name).sort()).toEqual(['job', 'job/clients', 'job/drafts']);
  });

  it('offers merge only for a tag without children, says why otherwise, and merges a leaf into another', async () => {
    dataOf(await u.api('POST', '/tags', { body: { name: 'work/clients' } }), Tag, 201);
    bookmarks(2, { tags: ['work/clients'] });
    bookmarks(3, { tags: ['customers'] });
    open(TagsSection);

    await user.click(await screen.findByRole('treeitem', { name: /^work/ }));
    const mergeParent = screen.getByRole('button', { name: 'Merge into…' });
    expect((mergeParent as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Only a tag without child tags can be merged into another: merge or delete its child tags first.')).toBeTruthy();

    await user.click(tagItem(/^clients/));
    await user.click(screen.getByRole('button', { name: 'Merge into…' }));
    const dialog = screen.getByRole('dialog', { name: 'Merge “work/clients” into…' });
    const customers = (await serverTags()).find((tag) => tag.name === 'customers')!;
    await user.selectOptions(within(dialog).getByLabelText('Merge into'), customers.id);
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(within(tree('Tags')).queryByRole('treeitem', { name: /^clients/ })).toBeNull());
    await screen.findByRole('treeitem', { name: /^customers\s*5 bookmarks$/ });
    expect(requested(/^POST \/v1\/tags\/merge$/)).toHaveLength(1);
  });

  it('merge dialog: a tag is shown as chosen only when it is, and Merge goes only to a tag the filter shows', async () => {
    bookmarks(1, { tags: ['old'] });
    bookmarks(2, { tags: ['development'] });
    bookmarks(1, { tags: ['design'] });
    open(TagsSection);
    await user.click(await screen.findByRole('treeitem', { name: /^old/ }));
    await user.click(screen.getByRole('button', { name: 'Merge into…' }));
    expect(screen.getByText(/A tag’s colour is chosen when the tag is created and cannot be changed afterwards\./)).toBeTruthy();
    const dialog = screen.getByRole('dialog', { name: 'Merge “old” into…' });
    const list = within(dialog).getByLabelText('Merge into') as HTMLSelectElement;
    const merge = within(dialog).getByRole('button', { name: 'Merge' }) as HTMLButtonElement;
    const chosen = () => [...list.selectedOptions].filter((o) => !o.hidden).map((o) => o.textContent);

    await user.type(within(dialog).getByLabelText('Filter tags'), 'develop');
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['development (2 bookmarks)']);
    expect(chosen()).toEqual([]);
    expect(merge.disabled).toBe(true);

    await user.selectOptions(list, within(list).getByRole('option', { name: 'development (2 bookmarks)' }));
    expect(chosen()).toEqual(['development (2 bookmarks)']);
    expect(merge.disabled).toBe(false);

    // Filtered out of sight, the chosen tag is chosen no more: nothing merges into a tag the user cannot see.
    const filter = within(dialog).getByLabelText('Filter tags');
    await user.clear(filter);
    await user.type(filter, 'des');
    expect(chosen()).toEqual([]);
    expect(merge.disabled).toBe(true);
  });

  it('deletes a tag saying how many bookmarks lose it and which child tags go too', async () => {
    dataOf(await u.api('POST', '/tags', { body: { name: 'old/sub' } }), Tag, 201);
    bookmarks(4, { tags: ['old'] });
    bookmarks(1, { tags: ['old/sub'] });
    open(TagsSection);
    await user.click(await screen.findByRole('treeitem', { name: /^old/ }));
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the tag “old”?' });
    expect(dialog.textContent).toContain('4 bookmarks lose it; the bookmarks themselves stay. Its 1 child tag goes too (old/sub), carried by 1 bookmark.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete tag' }));
    await waitFor(() => expect(within(tree('Tags')).queryAllByRole('treeitem')).toHaveLength(0));
    expect(await serverTags()).toEqual([]);
  });

  it('a refused rename says why in words and puts the old name back', async () => {
    dataOf(await u.api('POST', '/tags', { body: { name: 'alpha' } }), Tag, 201);
    dataOf(await u.api('POST', '/tags', { body: { name: 'beta' } }), Tag, 201);
    open(TagsSection);
    await user.click(await screen.findByRole('treeitem', { name: /^alpha/ }));
    const name = screen.getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'beta');
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('That cannot be done right now.');
    expect(alert.textContent).toContain('merge the tags');
    await waitFor(() => expect(rowTexts('Tags')).toEqual(['alpha0 bookmarks', 'beta0 bookmarks']));
  });

  it('a revoked token gets “sign in again” with the way to the Account section', async () => {
    open(TagsSection);
    await screen.findByRole('tree', { name: 'Tags' });
    await screen.findByText('No tags yet.');
    await server.t.server.deps.store.accounts.revokeToken(u.tokenId, server.t.server.deps.clock.now());
    await user.type(screen.getByLabelText(/New tag/), 'fresh');
    await user.click(screen.getByRole('button', { name: 'Create tag' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('revoked');
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('#account');
  });

  it('shows 2,000 tags virtualised, and the filter narrows them', async () => {
    const names = Array.from({ length: 2000 }, (_, i) => `topic${i}`);
    const insert = server.db.prepare('INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES (?, ?, ?, ?, 0)');
    server.db.transaction(() => names.forEach((n, i) => insert.run(`tag_bulk${i}_${u.userId}`, u.userId, n, n)))();
    open(TagsSection);
    await screen.findByRole('treeitem', { name: /^topic0\b/ }, { timeout: 15_000 });
    expect(within(tree('Tags')).getAllByRole('treeitem').length).toBeLessThan(60);
    await user.type(screen.getByLabelText('Filter tags'), 'topic1999');
    await waitFor(() => expect(rowTexts('Tags')).toEqual(['topic19990 bookmarks']));
  });
});
