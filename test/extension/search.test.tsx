// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { App } from '../../entrypoints/sidepanel/App.tsx';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { recentSearchesItem } from '../../lib/storage/search-items.ts';
import { dataOf } from '../support/expect.ts';
import { insertBookmarks } from '../server/smart-folders-fixtures.ts';
import { signedInLibrary } from './support/library-page.ts';

const server = signedInLibrary({ width: 360, height: 640 });

function openPanel(): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  render(
    <QueryClientProvider client={client}>
      <App opening={null} />
    </QueryClientProvider>,
  );
}

const requested = (pattern: RegExp) => server.bg.requests.filter((r) => pattern.test(`${r.method} ${new URL(r.url).pathname}`));
const box = () => screen.findByRole('searchbox', { name: /^Search/ });
const results = (text: string) => screen.findByRole('list', { name: `Search results for ${text}` }, { timeout: 10_000 });
const resultTitles = (list: HTMLElement) => within(list).getAllByRole('link').map((a) => a.textContent);

/** Saved through the API with title and description, so no page is fetched; a second apart, oldest first. */
async function save(body: { url: string; title: string; tags?: string[]; collectionId?: string; isFavorite?: boolean }): Promise<Bookmark> {
  await server.t.advance(1000);
  return dataOf(await server.u.api('POST', '/bookmarks', { body: { description: 'd', ...body } }), Bookmark, 201);
}
const collection = async (name: string) => dataOf(await server.u.api('POST', '/collections', { body: { name } }), Collection, 201);

describe('search box: operators in a collection', () => {
  it('finds #tag site: inside the collection open, with one filtered list request, the filters shown as chips', async () => {
    const reading = await collection('Reading');
    await save({ url: 'https://example.com/a', title: 'Tagged here', tags: ['dev'], collectionId: reading.id });
    await save({ url: 'https://www.example.com/b', title: 'Tagged below', tags: ['dev/rust'], collectionId: reading.id });
    await save({ url: 'https://example.com/c', title: 'Other tag', tags: ['devops'], collectionId: reading.id });
    await save({ url: 'https://other.org/d', title: 'Other site', tags: ['dev'], collectionId: reading.id });
    await save({ url: 'https://example.com/e', title: 'Other collection', tags: ['dev'] });
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: /^Reading/ }));
    server.bg.requests.length = 0;
    await server.user.type(await screen.findByRole('searchbox', { name: 'Search in Reading' }), '#dev site:example.com');
    const chips = await screen.findByRole('list', { name: 'Search filters' });
    expect(within(chips).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Tag: dev (and tags under it)', 'Site: example.com']);
    const list = await results('#dev site:example.com');
    await waitFor(() => expect(resultTitles(list).sort()).toEqual(['Tagged below', 'Tagged here']));
    expect(screen.getByText('2 bookmarks found.')).toBeTruthy();
    // The collection is small: it is listed with the API's filters, not searched.
    const lists = requested(/GET \/v1\/bookmarks$/).map((r) => new URL(r.url).searchParams);
    expect(lists.at(-1)?.get('collectionId')).toBe(reading.id);
    expect(lists.at(-1)?.get('domain')).toBe('example.com');
    expect(requested(/GET \/v1\/bookmarks\/search/)).toHaveLength(0);
  });

  it('says what it could not read, and finds nothing in a collection that does not exist without asking the server', async () => {
    openPanel();
    await server.user.type(await box(), 'foo:bar in:Nowhere');
    expect(await screen.findByText('"foo:bar" is not a search operator, so it is searched as words.')).toBeTruthy();
    expect(await screen.findByText('No collection is named "Nowhere".')).toBeTruthy();
    await server.bg.idle();
    // The library's counts (stats) are the only bookmarks request: nothing is searched or listed.
    expect(requested(/\/v1\/bookmarks(?!\/stats$)/)).toHaveLength(0);
  });

  it('leaves out -words and -#tags, and finds is:favorite with the API’s filter', async () => {
    await save({ url: 'https://a.example/1', title: 'Garden beds', tags: ['home'], isFavorite: true });
    await save({ url: 'https://a.example/2', title: 'Garden tools', tags: ['shop'], isFavorite: true });
    await save({ url: 'https://a.example/3', title: 'Garden pests' });
    openPanel();
    await server.user.type(await box(), 'garden -tools is:favorite');
    expect(resultTitles(await results('garden -tools is:favorite'))).toEqual(['Garden beds']);
    await server.user.clear(await box());
    await server.user.type(await box(), 'garden -#shop');
    await waitFor(async () => expect(resultTitles(await results('garden -#shop')).sort()).toEqual(['Garden beds', 'Garden pests']));
  });
});

describe('search: ranking, count and more', () => {
  it('ranks whole words in titles first: "rust" shows Rust above Trust', async () => {
    await save({ url: 'https://r.example/1', title: 'The Rust book' });
    await save({ url: 'https://r.example/2', title: 'Trust and safety' });
    await save({ url: 'https://rust.example/3', title: 'Notes' });
    openPanel();
    await server.user.type(await box(), 'rust');
    const list = await results('rust');
    await waitFor(() => expect(resultTitles(list)).toEqual(['The Rust book', 'Trust and safety', 'Notes']));
  });

  it('shows the count, loads more on request, and says when the API’s most left matches out', async () => {
    const now = server.t.server.deps.clock.now();
    const ids = insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 230 }, (_, i) => ({ createdAt: now - i * 1000 })));
    const retitle = server.db.prepare('UPDATE bookmarks SET title = ? WHERE id = ?');
    ids.forEach((id, i) => retitle.run(`Moss ${i}`, id));
    openPanel();
    await server.user.type(await box(), 'moss');
    expect(await screen.findByText('50 bookmarks found so far.', undefined, { timeout: 10_000 })).toBeTruthy();
    await server.user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('200 bookmarks found.', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Only the 200 newest bookmarks containing "moss" were looked through. Add words to find older ones.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    const limits = requested(/GET \/v1\/bookmarks\/search/).map((r) => new URL(r.url).searchParams).filter((p) => p.get('q') === 'moss').map((p) => p.get('limit'));
    expect(limits).toEqual(['50', '200']);
  }, 60_000);

  it('a search the API cannot filter looks through the list within the request budget, and says it is partial', async () => {
    const reading = await collection('Reading');
    const now = server.t.server.deps.clock.now();
    insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 1000 }, (_, i) => ({ createdAt: now - i * 1000, collectionId: reading.id })));
    openPanel();
    await server.user.type(await box(), 'is:unsorted');
    // Every bookmark is in a collection: every request of the step is spent, and the user is told.
    expect(await screen.findByText('No bookmarks found so far.', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Looked through the 800 newest bookmarks that could match so far. Load more looks further.')).toBeTruthy();
    expect(requested(/GET \/v1\/bookmarks$/)).toHaveLength(4);
    await server.user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('No bookmarks found.', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(requested(/GET \/v1\/bookmarks$/)).toHaveLength(5);
  }, 60_000);
});

describe('search: a tag larger than its list', () => {
  /** 250 bookmarks tagged moss, newest first, titled by their age. */
  function mossTagged(): void {
    const now = server.t.server.deps.clock.now();
    const ids = insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 250 }, (_, i) => ({ createdAt: now - i * 1000, tags: ['moss'] })));
    const retitle = server.db.prepare('UPDATE bookmarks SET title = ? WHERE id = ?');
    ids.forEach((id, i) => retitle.run(`Moss ${i}`, id));
  }

  it('without a smart folder, reads the tag’s first 200 and says how to read them all', async () => {
    mossTagged();
    openPanel();
    await server.user.type(await box(), '#moss');
    expect(await screen.findByText('200 bookmarks found.', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(
      screen.getByText(
        'Only the first 200 bookmarks of #moss were looked through: the server lists no more of a tag at once. A smart folder with the rule "tag equals" that tag lets this search read them all.',
      ),
    ).toBeTruthy();
    expect(requested(/GET \/v1\/smart-folders\/[^/]+\/bookmarks/)).toHaveLength(0);
  }, 60_000);

  it('reads it whole through the user’s smart folder for it, one heavy request a step, saying what is unread until then', async () => {
    mossTagged();
    await server.u.api('POST', '/smart-folders', { body: { name: 'All moss', rules: { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'moss' }] } } });
    openPanel();
    await server.user.type(await box(), '#moss "Moss 24"');
    // The folder walks 200 of the tag's memberships a request: the first step holds Moss 0–199 (the oldest tagged first), not yet Moss 240–249.
    expect(await screen.findByText('1 bookmark found so far.', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText(/^Read part of the smart folder "All moss" so far: the server answers two of its requests a minute\. Load more reads on/)).toBeTruthy();
    await server.user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('11 bookmarks found.', undefined, { timeout: 10_000 })).toBeTruthy();
    const list = await results('#moss "Moss 24"');
    expect(resultTitles(list)[0]).toBe('Moss 24');
    expect(screen.queryByText(/^Read part of the smart folder/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(requested(/GET \/v1\/smart-folders\/[^/]+\/bookmarks/)).toHaveLength(2);
    expect(requested(/GET \/v1\/(tags\/[^/]+\/bookmarks|bookmarks\/search)/)).toHaveLength(0);
  }, 60_000);
});

describe('search: recent searches', () => {
  it('keeps a search on Enter, offers it again, and clears the list', async () => {
    openPanel();
    await server.user.type(await box(), 'first{Enter}');
    await server.user.clear(await box());
    await server.user.type(await box(), 'second  search{Enter}');
    await waitFor(async () => expect(await recentSearchesItem.get()).toEqual(['second search', 'first']));
    await server.user.clear(await box());
    await server.user.click(screen.getByRole('button', { name: 'Recent' }));
    const recent = screen.getByRole('region', { name: 'Recent searches' });
    await server.user.click(within(recent).getByRole('button', { name: 'first' }));
    expect(((await box()) as HTMLInputElement).value).toBe('first');
    await server.user.click(screen.getByRole('button', { name: 'Recent' }));
    await server.user.click(screen.getByRole('button', { name: 'Clear recent searches' }));
    await waitFor(async () => expect(await recentSearchesItem.get()).toEqual([]));
    expect(screen.queryByRole('button', { name: 'Recent' })).toBeNull();
  });

  it('reads a stored list that no longer fits as none, and Escape clears the box', async () => {
    await fakeBrowser.storage.local.set({ recentSearches: [42] });
    expect(await recentSearchesItem.get()).toEqual([]);
    openPanel();
    await server.user.type(await box(), 'moss');
    await server.user.keyboard('{Escape}');
    expect(((await box()) as HTMLInputElement).value).toBe('');
  });
});

describe('Sites and Overview', () => {
  it('lists each site with its count; choosing one lists its bookmarks', async () => {
    await save({ url: 'https://example.com/1', title: 'One' });
    await save({ url: 'https://www.example.com/2', title: 'Two' });
    await save({ url: 'https://other.org/3', title: 'Three' });
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'Sites' }));
    const sites = await screen.findByRole('list', { name: 'Sites' });
    expect(within(sites).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['example.com, 2 bookmarks', 'other.org, 1 bookmark']);
    await server.user.click(within(sites).getByRole('button', { name: 'example.com, 2 bookmarks' }));
    const list = await results('site:example.com');
    await waitFor(() => expect(resultTitles(list)).toEqual(['Two', 'One']));
  });

  it('shows the totals, and each leads to its list', async () => {
    const reading = await collection('Reading');
    await save({ url: 'https://example.com/1', title: 'Favourite', isFavorite: true, tags: ['x'], collectionId: reading.id });
    await save({ url: 'https://example.com/2', title: 'Plain' });
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'Overview' }));
    expect(await screen.findByRole('button', { name: 'All bookmarks: 2 bookmarks' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Favourites: 1 bookmark' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unsorted: 1 bookmark' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Links: 2 bookmarks' })).toBeTruthy();
    await server.user.click(screen.getByRole('button', { name: 'Without tags: 1 bookmark' }));
    expect(resultTitles(await results('is:untagged'))).toEqual(['Plain']);
    await server.user.clear(await box());
    await server.user.click(await screen.findByRole('button', { name: 'Favourites: 1 bookmark' }));
    expect(await screen.findByRole('heading', { name: 'Favourites' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Favourite' })).toBeTruthy();
  });
});
