// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type * as CardModule from '../../components/library/BookmarkCard.tsx';
import type { BookmarkCardProps } from '../../components/library/BookmarkCard.tsx';
import { domainHue } from '../../components/library/cover-placeholder.tsx';
import { setupLibraryPage } from '../../entrypoints/background/library-page.ts';
import { App } from '../../entrypoints/library/App.tsx';
import { App as OptionsApp } from '../../entrypoints/options/App.tsx';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { libraryReplies } from '../../lib/messaging/library-replies.ts';
import type { OpenAllRequest } from '../../lib/messaging/library-requests.ts';
import { sendMessage } from '../../lib/messaging/transport.ts';
import { librarySortsItem, libraryViewsItem } from '../../lib/storage/library-items.ts';
import { dataOf } from '../support/expect.ts';
import { insertBookmarks } from '../server/smart-folders-fixtures.ts';
import { signedInLibrary } from './support/library-page.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

const server = signedInLibrary({ width: 1200, height: 800 });

/** The ids of the cards rendered, in order: a scroll should render only the ones it brings into the page. */
const cardRenders = vi.hoisted(() => [] as string[]);
vi.mock('../../components/library/BookmarkCard.tsx', async (importOriginal) => {
  const { createElement, memo } = await import('react');
  const real = await importOriginal<typeof CardModule>();
  // Memoised as the real card is, so it renders exactly when the real one would.
  const Counted = memo(function Counted(props: BookmarkCardProps) {
    cardRenders.push(props.bookmark.id);
    return createElement(real.BookmarkCard, props);
  });
  return { ...real, BookmarkCard: Counted };
});

function openLibrary(): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  render(
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>,
  );
}

async function collection(name: string): Promise<Collection> {
  return dataOf(await server.u.api('POST', '/collections', { body: { name } }), Collection, 201);
}

/** `count` bookmarks, newest first by index. */
function bookmarks(count: number, extra: { collectionId?: string; tags?: string[]; domain?: string } = {}): string[] {
  const now = server.t.server.deps.clock.now();
  return insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: count }, (_, i) => ({ createdAt: now - i * 1000, ...extra })));
}

const sources = () => screen.findByRole('navigation', { name: 'Library' });
const viewButton = (name: 'List' | 'Cards' | 'Grid') => within(screen.getByRole('group', { name: 'View' })).getByRole('button', { name });
const pressed = (name: 'List' | 'Cards' | 'Grid') => viewButton(name).getAttribute('aria-pressed');

describe('library page: layout and views', () => {
  it('shows the sources beside All bookmarks as cards: cover, title, excerpt, domain and tags', async () => {
    const reading = await collection('Reading');
    const [withCover, without] = bookmarks(2, { tags: ['news/tech'], collectionId: reading.id });
    server.db.prepare('UPDATE bookmarks SET cover_image = ?, excerpt = ? WHERE id = ?').run('https://img.example.com/c.png', 'A short excerpt', withCover);
    openLibrary();
    const nav = await sources();
    for (const name of ['All bookmarks', 'Favourites', 'Unsorted', 'Duplicates', 'Broken links', 'Trash']) expect(within(nav).getByRole('button', { name })).toBeTruthy();
    // The collection with its count.
    expect((await within(nav).findByRole('button', { name: /^Reading/ })).textContent).toContain('2');
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    expect(pressed('Cards')).toBe('true');
    const card = (await within(list).findByRole('link', { name: `Title ${withCover}` })).closest('li')!;
    expect(card.querySelector('img[src="https://img.example.com/c.png"]')).not.toBeNull();
    expect(card.textContent).toContain('A short excerpt');
    expect(card.textContent).toContain('example.com');
    expect(card.textContent).toContain('#news/tech');
    expect(within(card).getByRole('button', { name: `Edit Title ${withCover}` })).toBeTruthy();
    // No cover: the placeholder, coloured from the domain.
    const other = within(list).getByRole('link', { name: `Title ${without}` }).closest('li')!;
    const placeholder = other.querySelector<HTMLElement>('[data-testid="cover-placeholder"]')!;
    expect(placeholder.style.backgroundColor).toContain(String(domainHue('example.com')));
  });

  it('draws only http(s) covers: any other address gets the placeholder', async () => {
    const [bad] = bookmarks(1);
    server.db.prepare('UPDATE bookmarks SET cover_image = ?, favicon = ? WHERE id = ?').run('javascript:alert(1)', 'data:image/png;base64,AAAA', bad);
    openLibrary();
    const card = (await screen.findByRole('link', { name: `Title ${bad}` })).closest('li')!;
    expect(card.querySelector('[data-testid="cover-placeholder"]')).not.toBeNull();
    expect(card.querySelectorAll('img')).toHaveLength(0);
    // No favicon either: the domain's first letter.
    expect(card.querySelector('[data-testid="cover-placeholder"]')!.textContent).toBe('e');
  });

  it('asks once in the page for each favicon: one item tries it, the others draw the letter until it loads, and none asks again once it failed', async () => {
    const failing = 'https://unresolved.example.com/favicon.ico';
    const loading = 'https://resolved.example.com/favicon.ico';
    const leaving = 'https://slow.example.com/favicon.ico';
    const ids = bookmarks(6) as [string, string, string, string, string, string];
    const setFavicon = server.db.prepare('UPDATE bookmarks SET favicon = ? WHERE id = ?');
    ids.forEach((id, i) => setFavicon.run([failing, loading, leaving][i % 3], id));
    openLibrary();
    await screen.findByRole('link', { name: `Title ${ids[0]}` });
    await server.user.click(viewButton('Grid'));
    const item = (id: string) => screen.getByRole('link', { name: `Title ${id}` }).closest('li')!;
    const faviconOf = (id: string) => item(id).querySelector('img')?.getAttribute('src') ?? null;
    const imagesOf = (address: string) => [...document.querySelectorAll<HTMLImageElement>('img')].filter((img) => img.getAttribute('src') === address);
    const letterOf = (id: string) => item(id).querySelector('[data-testid="cover-placeholder"]')!.textContent;
    const withFavicon = (address: string) => ids.filter((_, i) => [failing, loading, leaving][i % 3] === address);
    // Each address is asked for by one item; the other items of its site draw the domain's letter meanwhile.
    for (const address of [failing, loading, leaving]) {
      expect(imagesOf(address)).toHaveLength(1);
      expect(withFavicon(address).map(faviconOf).sort()).toEqual([address, null].sort());
    }

    cardRenders.length = 0;
    fireEvent.load(imagesOf(loading)[0]!);
    await waitFor(() => expect(withFavicon(loading).map(faviconOf)).toEqual([loading, loading]));
    fireEvent.error(imagesOf(failing)[0]!);
    await waitFor(() => expect(imagesOf(failing)).toEqual([]));
    expect(withFavicon(failing).map(letterOf)).toEqual(['e', 'e']);
    // Only the covers are drawn again, not the tiles.
    expect(cardRenders).toEqual([]);

    // Drawn anew (as a scroll brings items in), in the cards, the grid and the list: the failed address is not asked
    // for, the loaded one is drawn by every item of its site, and the one whose item left unanswered is tried again
    // by one item of the new view.
    for (const view of ['Cards', 'Grid', 'List'] as const) {
      await server.user.click(viewButton(view));
      expect(pressed(view)).toBe('true');
      expect(imagesOf(failing)).toEqual([]);
      expect(withFavicon(loading).map(faviconOf)).toEqual([loading, loading]);
      expect(imagesOf(leaving)).toHaveLength(1);
    }
    fireEvent.error(imagesOf(leaving)[0]!);
    await waitFor(() => expect(imagesOf(leaving)).toEqual([]));
    await server.user.click(viewButton('Grid'));
    expect(imagesOf(leaving)).toEqual([]);
    expect(imagesOf(failing)).toEqual([]);
  });

  it('switches between list, cards and grid, and remembers the choice per source, across openings', async () => {
    const reading = await collection('Reading');
    const [first] = bookmarks(3, { collectionId: reading.id });
    openLibrary();
    await screen.findByRole('link', { name: `Title ${first}` });
    await server.user.click(viewButton('Grid'));
    expect(pressed('Grid')).toBe('true');
    // The grid: covers, each titled by its link, no row of actions.
    const tile = screen.getByRole('link', { name: `Title ${first}` }).closest('li')!;
    expect(within(tile).queryByRole('button', { name: `Edit Title ${first}` })).toBeNull();
    expect(tile.querySelector('[data-testid="cover-placeholder"]')).not.toBeNull();

    // Another source opens in its own view (cards until chosen).
    await server.user.click(within(await sources()).getByRole('button', { name: /^Reading/ }));
    await screen.findByRole('list', { name: 'Reading' });
    expect(pressed('Cards')).toBe('true');
    await server.user.click(viewButton('List'));
    const row = (await screen.findByRole('link', { name: `Title ${first}` })).closest('li')!;
    expect(row.querySelector('[data-testid="cover-placeholder"]')).toBeNull();
    expect(within(row).getByRole('button', { name: `Trash Title ${first}` })).toBeTruthy();

    await server.user.click(within(await sources()).getByRole('button', { name: 'All bookmarks' }));
    await screen.findByRole('list', { name: 'All bookmarks' });
    expect(pressed('Grid')).toBe('true');
    expect(await libraryViewsItem.get()).toEqual({ 'list:{"kind":"all"}': 'grid', [`list:${JSON.stringify({ kind: 'collection', id: reading.id })}`]: 'list' });

    // A new opening of the page finds them again.
    cleanup();
    openLibrary();
    await screen.findByRole('list', { name: 'All bookmarks' });
    await waitFor(() => expect(pressed('Grid')).toBe('true'));
  });

  it('a stored choice that is not a view is ignored: the list opens as cards', async () => {
    await fakeBrowser.storage.local.set({ libraryViews: { 'list:{"kind":"all"}': 'mosaic' } });
    bookmarks(1);
    openLibrary();
    await screen.findByRole('list', { name: 'All bookmarks' });
    expect(pressed('Cards')).toBe('true');
  });

  it('keeps only the cards in view in the page, several a line, whatever the list’s length; a scroll renders only the cards it brings in', async () => {
    bookmarks(300);
    openLibrary();
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    await within(list).findAllByRole('listitem');
    // 1,200 px wide: five cards a line; 800 px high: three lines and the overscan.
    const cards = within(list).getAllByRole('listitem');
    expect(cards.length).toBeGreaterThanOrEqual(8);
    expect(cards.length).toBeLessThanOrEqual(40);
    expect(new Set(cards.map((li) => li.style.left)).size).toBe(5);
    await server.user.click(viewButton('Grid'));
    const tiles = within(list).getAllByRole('listitem');
    expect(new Set(tiles.map((li) => li.style.left)).size).toBe(6);
    expect(tiles.length).toBeLessThanOrEqual(70);

    // A scroll renders only the cards it brings in: none while no line enters (the view's bottom edge is at
    // 800 px, the next line starts at 840), and a line's six for each line scrolled, each of them new in the page.
    const region = screen.getByRole('region', { name: 'All bookmarks' });
    const shown = () => new Set(within(list).getAllByRole('listitem').map((li) => li.querySelector('a')!.textContent));
    const scrollTo = (top: number) => {
      cardRenders.length = 0;
      region.scrollTop = top;
      fireEvent.scroll(region);
    };
    for (const top of [10, 20, 30]) {
      scrollTo(top);
      expect(cardRenders).toEqual([]);
    }
    for (const top of [30 + 168, 30 + 168 * 2, 30 + 168 * 3]) {
      const before = shown();
      scrollTo(top);
      const entered = [...shown()].filter((title) => !before.has(title));
      expect(entered).toHaveLength(6);
      expect(cardRenders.map((id) => `Title ${id}`).sort()).toEqual(entered.sort());
    }
  });

  it('draws the grid tiles that enter as the list is flung as their cover colour alone, in full once it stops; never the selected one, nor for the keyboard', async () => {
    bookmarks(300);
    openLibrary();
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    await within(list).findAllByRole('listitem');
    await server.user.click(viewButton('Grid'));
    const region = screen.getByRole('region', { name: 'All bookmarks' });
    const items = () => within(list).getAllByRole('listitem');
    const light = () => items().filter((li) => li.querySelector('a') === null);
    const scrollTo = (top: number) => {
      region.scrollTop = top;
      fireEvent.scroll(region);
    };
    // 1,200 × 800 px: six tiles a line of 168 px. The first line's third tile selected, and the keyboard's item then
    // the fourth (an arrow key from the third). A move longer than the view made after a key pressed in the list draws
    // every tile in full.
    const chosen = items()[2]!;
    const chosenTitle = within(chosen).getByRole('link').getAttribute('aria-label')!;
    await server.user.click(within(chosen).getByRole('checkbox', { name: `Select ${chosenTitle}` }));
    fireEvent.keyDown(chosen, { key: 'ArrowRight' });
    await waitFor(() => expect(document.activeElement).toBe(items()[3]));
    scrollTo(4200);
    expect(items().length).toBeGreaterThanOrEqual(12);
    expect(light()).toEqual([]);

    // After the wheel, flung back to the top in one move: the tiles entering are their cover's colour alone, but the
    // selected tile and the keyboard's are drawn in full, and every item keeps its place and size.
    fireEvent.wheel(region);
    scrollTo(0);
    const flung = light();
    expect(flung.length).toBeGreaterThanOrEqual(12);
    expect(flung.every((li) => li.textContent === '' && li.querySelector('input') === null && li.style.transform.startsWith('translateY('))).toBe(true);
    expect(flung.every((li) => (li.firstElementChild as HTMLElement).style.backgroundColor !== '')).toBe(true);
    const full = items().filter((li) => !flung.includes(li));
    expect(full.map((li) => li.dataset.index).sort()).toEqual(['2', '3']);
    expect(within(full[0]!).getByRole('checkbox', { name: `Select ${chosenTitle}` })).toHaveProperty('checked', true);
    // Once it stops, every tile is drawn in full, named by its link and its checkbox.
    await waitFor(() => expect(light()).toEqual([]));
    const first = items()[1]!;
    const title = within(first).getByRole('link').getAttribute('aria-label')!;
    expect(within(first).getByRole('checkbox', { name: `Select ${title}` })).toBeTruthy();
  });

  it('opens Duplicates, Broken links and Trash in place of the list, without the view switch', async () => {
    openLibrary();
    await server.user.click(within(await sources()).getByRole('button', { name: 'Trash' }));
    expect(await screen.findByRole('heading', { name: 'Trash' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'View' })).toBeNull();
    await server.user.click(within(await sources()).getByRole('button', { name: 'Broken links' }));
    expect(await screen.findByRole('heading', { name: 'Broken links' })).toBeTruthy();
  });
});

/** The titles of the list's bookmarks, in the order shown. */
const titlesIn = (list: HTMLElement) => within(list).getAllByRole('link').map((a) => a.textContent);
const sortBox = () => screen.getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement;

describe('library page: sort and counts', () => {
  it('sorts a list by each order the API offers, remembered per source across openings', async () => {
    const reading = await collection('Reading');
    // Newest first: b, a, c (by index); titles and sites in other orders.
    const [b, a, c] = bookmarks(3);
    const [inReading] = bookmarks(1, { collectionId: reading.id });
    const retitle = server.db.prepare('UPDATE bookmarks SET title = ?, domain = ? WHERE id = ?');
    retitle.run('banana', 'zeta.example', b);
    retitle.run('Apple', 'alpha.example', a);
    retitle.run('cherry', 'mid.example', c);
    retitle.run('Damson', 'beta.example', inReading);
    openLibrary();
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    await server.user.click(viewButton('List'));
    await waitFor(() => expect(titlesIn(list)).toEqual(['Damson', 'banana', 'Apple', 'cherry']));
    expect(sortBox().value).toBe('newest');

    await server.user.selectOptions(sortBox(), 'Title (A to Z)');
    await waitFor(() => expect(titlesIn(screen.getByRole('list', { name: 'All bookmarks' }))).toEqual(['Apple', 'banana', 'cherry', 'Damson']));
    await server.user.selectOptions(sortBox(), 'Oldest first');
    await waitFor(() => expect(titlesIn(screen.getByRole('list', { name: 'All bookmarks' }))).toEqual(['cherry', 'Apple', 'banana', 'Damson']));
    await server.user.selectOptions(sortBox(), 'Site (A to Z)');
    await waitFor(() => expect(titlesIn(screen.getByRole('list', { name: 'All bookmarks' }))).toEqual(['Apple', 'Damson', 'cherry', 'banana']));

    // A collection sorts its own bookmarks only, in its own order (newest until chosen).
    await server.user.click(within(await sources()).getByRole('button', { name: /^Reading/ }));
    await screen.findByRole('list', { name: 'Reading' });
    expect(sortBox().value).toBe('newest');
    server.bg.requests.length = 0;
    await server.user.selectOptions(sortBox(), 'Title (A to Z)');
    await waitFor(() => expect(titlesIn(screen.getByRole('list', { name: 'Reading' }))).toEqual(['Damson']));
    expect(server.bg.requests.some((r) => r.url.includes(`collectionId=${reading.id}`) && r.url.includes('sortBy=title'))).toBe(true);
    expect(await librarySortsItem.get()).toEqual({ 'list:{"kind":"all"}': 'domain', [`list:${JSON.stringify({ kind: 'collection', id: reading.id })}`]: 'title' });

    // A new opening of the page finds All in its order again, asked of the server in it.
    cleanup();
    openLibrary();
    await waitFor(() => expect(titlesIn(screen.getByRole('list', { name: 'All bookmarks' }))).toEqual(['Apple', 'Damson', 'cherry', 'banana']));
    expect(sortBox().value).toBe('domain');
  });

  it('offers no order for a tag, whose list the API gives in one order, and ignores a stored order that is none', async () => {
    bookmarks(2, { tags: ['deep'] });
    await fakeBrowser.storage.local.set({ librarySorts: { 'list:{"kind":"all"}': 'random' } });
    openLibrary();
    await screen.findByRole('list', { name: 'All bookmarks' });
    expect(sortBox().value).toBe('newest');
    await server.user.click(await within(await sources()).findByRole('button', { name: /^deep/ }));
    await screen.findByRole('list', { name: 'deep' });
    expect(screen.queryByRole('combobox', { name: 'Sort' })).toBeNull();
  });

  it('says when favourites sorted by title are only the most recent ones, as the API sorts them', async () => {
    const now = server.t.server.deps.clock.now();
    insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 102 }, (_, i) => ({ createdAt: now - i * 1000, isFavorite: true })));
    openLibrary();
    await server.user.click(within(await sources()).getByRole('button', { name: 'Favourites' }));
    await screen.findByRole('list', { name: 'Favourites' });
    expect(screen.queryByText(/most recently saved favourites/)).toBeNull();
    await server.user.selectOptions(sortBox(), 'Title (A to Z)');
    expect(await screen.findByText('Only your 100 most recently saved favourites are sorted here. Sort by newest or oldest to see them all.')).toBeTruthy();
  });

  it('counts All, Favourites and Unsorted from the library’s stats, each place still named as before', async () => {
    const reading = await collection('Reading');
    bookmarks(2, { collectionId: reading.id });
    const [fav, other] = bookmarks(3);
    server.db.prepare('UPDATE bookmarks SET is_favorite = 1 WHERE id = ?').run(fav);
    openLibrary();
    const nav = await sources();
    const described = (name: string) => within(nav).getByRole('button', { name }).getAttribute('aria-describedby');
    await waitFor(() => expect(described('All bookmarks')).not.toBeNull());
    const countOf = (name: string) => document.getElementById(described(name)!)!.textContent;
    expect(countOf('All bookmarks')).toBe('5 bookmarks');
    expect(within(nav).getByRole('button', { name: 'All bookmarks' }).textContent).toBe('All bookmarks5');
    expect(countOf('Favourites')).toBe('1 bookmark');
    expect(countOf('Unsorted')).toBe('3 bookmarks');
    expect((await within(nav).findByRole('button', { name: /^Reading/ })).textContent).toContain('2');

    // A bookmark favourited from the list: the count follows.
    await server.user.click(viewButton('List'));
    await server.user.click(await screen.findByRole('button', { name: `Favourite Title ${other}` }));
    await waitFor(() => expect(countOf('Favourites')).toBe('2 bookmarks'));
  });
});

describe('library page: Open all', () => {
  it('opens a collection’s bookmarks as the tabs of a new window, through the background, each open counted', async () => {
    const reading = await collection('Reading');
    const ids = bookmarks(3, { collectionId: reading.id });
    bookmarks(1);
    const created = vi.spyOn(fakeBrowser.windows, 'create');
    openLibrary();
    await server.user.click(await within(await sources()).findByRole('button', { name: /^Reading/ }));
    await screen.findByRole('list', { name: 'Reading' });
    await server.user.click(screen.getByRole('button', { name: 'Open all' }));
    expect(await screen.findByText('Opened 3 bookmarks in a new window.')).toBeTruthy();
    // Three is few: no question first.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(created).toHaveBeenCalledTimes(1);
    expect(created).toHaveBeenCalledWith({ url: ids.map((id) => `https://example.com/${id}`) });
    await server.bg.services.opens.flush();
    await waitFor(async () => expect((await Promise.all(ids.map(onServer))).map((b) => b.clickCount)).toEqual([1, 1, 1]), POLL_SERVER);
  });

  it('asks first above 20, with the count; Cancel opens nothing', async () => {
    const reading = await collection('Reading');
    const ids = bookmarks(21, { collectionId: reading.id });
    const created = vi.spyOn(fakeBrowser.windows, 'create');
    openLibrary();
    await server.user.click(await within(await sources()).findByRole('button', { name: /^Reading/ }));
    await screen.findByRole('list', { name: 'Reading' });
    await server.user.click(screen.getByRole('button', { name: 'Open all' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Open 21 bookmarks?' });
    await server.user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(created).not.toHaveBeenCalled();

    await server.user.click(screen.getByRole('button', { name: 'Open all' }));
    await server.user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Open all' }));
    expect(await screen.findByText('Opened 21 bookmarks in a new window.')).toBeTruthy();
    expect(created).toHaveBeenCalledWith({ url: ids.map((id) => `https://example.com/${id}`) });
  });

  it('opens a selection, leaving out what is no web page, and says when there is nothing to open', async () => {
    const [web, ftp, other] = bookmarks(3);
    server.db.prepare('UPDATE bookmarks SET url = ? WHERE id = ?').run('ftp://files.example.com/a', ftp);
    const created = vi.spyOn(fakeBrowser.windows, 'create');
    openLibrary();
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    const select = (id: string) => server.user.click(within(within(list).getByRole('link', { name: `Title ${id}` }).closest('li')!).getByRole('checkbox'));
    await select(web!);
    await select(ftp!);
    const toolbar = screen.getByRole('toolbar', { name: 'Selected bookmarks' });
    await server.user.click(within(toolbar).getByRole('button', { name: 'Open all' }));
    expect(await within(toolbar).findByText('Opened 1 bookmark in a new window.')).toBeTruthy();
    expect(created).toHaveBeenCalledWith({ url: [`https://example.com/${web}`] });

    await server.user.click(within(toolbar).getByRole('button', { name: 'Clear selection' }));
    await select(ftp!);
    await server.user.click(within(screen.getByRole('toolbar', { name: 'Selected bookmarks' })).getByRole('button', { name: 'Open all' }));
    expect(await screen.findByText('Nothing to open: none of these is a web page.')).toBeTruthy();
    expect(created).toHaveBeenCalledTimes(1);
    expect(other).toBeDefined();
  });

  it('the background refuses an Open all that is not well formed, opening nothing', async () => {
    const created = vi.spyOn(fakeBrowser.windows, 'create');
    const bad = [{ kind: 'bookmarks', bookmarks: [] }, { kind: 'bookmarks', bookmarks: Array.from({ length: 101 }, (_, i) => ({ id: `bm_${i}`, url: 'https://example.com/' })) }, { kind: 'collection' }];
    for (const request of bad) await expect(sendMessage(server.bg.runtime, libraryReplies, 'openAll', request as OpenAllRequest)).rejects.toThrow();
    expect(created).not.toHaveBeenCalled();
  });
});

describe('library page: the ways to it', () => {
  it('opens in a new tab from the toolbar button’s menu', async () => {
    const create = vi.spyOn(fakeBrowser.contextMenus, 'create').mockImplementation(() => 1);
    // WXT's fake browser has no menu events: the listener is taken as the background adds it, and called as a click would.
    let onClicked: ((info: { menuItemId: string | number }) => void) | undefined;
    vi.spyOn(fakeBrowser.contextMenus.onClicked, 'addListener').mockImplementation((listener) => void (onClicked = listener as typeof onClicked));
    const opened = vi.spyOn(fakeBrowser.tabs, 'create');
    // Under test, wxt/browser is fakeBrowser (WXT's vitest plugin).
    setupLibraryPage(browser);
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install', temporary: false });
    expect(create).toHaveBeenCalledWith({ id: 'shelf-library-page', title: 'Open library', contexts: ['action'] });
    onClicked!({ menuItemId: 'shelf-library-page' });
    expect(opened).toHaveBeenCalledWith({ url: fakeBrowser.runtime.getURL('/library.html') });
    // Another menu item opens nothing here.
    onClicked!({ menuItemId: 'shelf-side-panel-action' });
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('is linked from the options page, opening in a new tab', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <OptionsApp />
      </QueryClientProvider>,
    );
    const link = await screen.findByRole('link', { name: 'Open library' });
    expect(link.getAttribute('href')).toBe('/library.html');
    expect(link.getAttribute('target')).toBe('_blank');
  });
});

/** The bookmarks' ids in the list as the server has them now, with their collection and tags. */
const onServer = async (id: string) => dataOf(await server.u.api('GET', `/bookmarks/${id}`), Bookmark, 200);

/** A drag's data as a browser carries it between a drag's start and its drop. */
function dataTransfer() {
  const data = new Map<string, string>();
  return {
    get types() {
      return [...data.keys()];
    },
    setData: (type: string, value: string) => void data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    dropEffect: 'none',
    effectAllowed: 'all',
  };
}

describe('library page: keyboard', () => {
  it('moves with the arrows across a line and down the lines, opens with Enter, selects with Space', async () => {
    const ids = bookmarks(7);
    const opened = vi.spyOn(fakeBrowser.tabs, 'create');
    openLibrary();
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    const item = (i: number) => within(list).getByRole('link', { name: `Title ${ids[i]}` }).closest('li')!;
    await waitFor(() => expect(item(0).tabIndex).toBe(0));
    item(0).focus();
    await server.user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(item(1));
    // Five cards a line: down is five on.
    await server.user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(item(6));
    await server.user.keyboard('{ArrowUp}{ArrowLeft}');
    expect(document.activeElement).toBe(item(0));
    // Past the first: stays.
    await server.user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(item(0));

    await server.user.keyboard(' ');
    expect((within(item(0)).getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('toolbar', { name: 'Selected bookmarks' }).textContent).toContain('1 selected');

    await server.user.keyboard('{Enter}');
    expect(opened).toHaveBeenCalledWith({ url: `https://example.com/${ids[0]}`, active: false });
    // The open is recorded for its "Times opened".
    await server.bg.services.opens.flush();
    await waitFor(async () => expect((await onServer(ids[0]!)).clickCount).toBe(1), POLL_SERVER);
  });

  it('e edits, Delete trashes with an undo, m and t move and tag the selection, / goes to the search box', async () => {
    const ids = bookmarks(3);
    openLibrary();
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    const item = (i: number) => within(list).getByRole('link', { name: `Title ${ids[i]}` }).closest('li')!;
    await waitFor(() => expect(item(0).tabIndex).toBe(0));
    item(0).focus();

    await server.user.keyboard('e');
    expect(await screen.findByRole('dialog', { name: 'Edit bookmark' })).toBeTruthy();
    await server.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    item(2).focus();
    await server.user.keyboard('{Delete}');
    expect(await screen.findByText(`Moved to the trash: Title ${ids[2]}`)).toBeTruthy();
    expect((await onServer(ids[2]!)).deletedAt).toBeTruthy();
    await server.user.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(async () => expect((await onServer(ids[2]!)).deletedAt).toBeFalsy(), POLL_SERVER);

    // Two selected: m moves both through the collection picker.
    item(0).focus();
    await server.user.keyboard(' {ArrowDown} ');
    await server.user.keyboard('m');
    expect(await screen.findByRole('dialog', { name: 'Move 2 bookmarks' })).toBeTruthy();
    await server.user.keyboard('{Escape}');
    item(0).focus();
    await server.user.keyboard('t');
    expect(await screen.findByRole('dialog', { name: 'Tag 2 bookmarks' })).toBeTruthy();
    await server.user.keyboard('{Escape}');

    item(0).focus();
    await server.user.keyboard('/');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search bookmarks' }));
    // Typed in the box, "/" is a character like any other.
    await server.user.keyboard('a/b');
    expect((document.activeElement as HTMLInputElement).value).toBe('a/b');
  });
});

describe('library page: drag onto a source', () => {
  it('moves the selected bookmarks onto a collection in one bulk request, and tags one dragged onto a tag', async () => {
    const reading = await collection('Reading');
    const ids = bookmarks(3, { tags: ['deep'] });
    openLibrary();
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    const item = (i: number) => within(list).getByRole('link', { name: `Title ${ids[i]}` }).closest('li')!;
    await server.user.click(within(item(0)).getByRole('checkbox'));
    await server.user.click(within(item(1)).getByRole('checkbox'));
    const nav = await sources();
    const target = (await within(nav).findByRole('button', { name: /^Reading/ })).closest('li')!;
    server.bg.requests.length = 0;

    const drag = dataTransfer();
    fireEvent.dragStart(item(1), { dataTransfer: drag });
    fireEvent.dragOver(target, { dataTransfer: drag });
    fireEvent.drop(target, { dataTransfer: drag });
    expect(await screen.findByText('Moved 2 of 2.')).toBeTruthy();
    expect((await onServer(ids[0]!)).collectionId).toBe(reading.id);
    expect((await onServer(ids[1]!)).collectionId).toBe(reading.id);
    expect((await onServer(ids[2]!)).collectionId).toBeNull();
    expect(server.bg.requests.filter((r) => r.method === 'POST' && r.url.includes('/bookmarks/bulk/move'))).toHaveLength(1);

    // One not selected: only itself.
    const tag = (await within(nav).findByRole('button', { name: /^deep/ })).closest('li')!;
    const single = dataTransfer();
    fireEvent.dragStart(item(2), { dataTransfer: single });
    fireEvent.drop(tag, { dataTransfer: single });
    expect(await screen.findByText('Tagged 1 of 1.')).toBeTruthy();
  });

  it('takes no drop that is not Shelf’s bookmarks: a link from another page, or ids that are not a list', async () => {
    await collection('Reading');
    const [id] = bookmarks(1);
    openLibrary();
    await screen.findByRole('link', { name: `Title ${id}` });
    const target = (await within(await sources()).findByRole('button', { name: /^Reading/ })).closest('li')!;
    server.bg.requests.length = 0;
    const foreign = dataTransfer();
    foreign.setData('text/uri-list', 'https://elsewhere.example/');
    expect(fireEvent.dragOver(target, { dataTransfer: foreign })).toBe(true); // not accepted: the default stays
    fireEvent.drop(target, { dataTransfer: foreign });
    const forged = dataTransfer();
    forged.setData('application/x-shelf-bookmark-ids', '{"ids":"all"}');
    fireEvent.drop(target, { dataTransfer: forged });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.bg.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect((await onServer(id!)).collectionId).toBeNull();
  });
});
