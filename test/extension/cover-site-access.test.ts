import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setupCoverMenu, MENU_COVER } from '../../entrypoints/background/cover-menu.ts';
import type { Covers } from '../../entrypoints/background/covers.ts';
import { ClientError } from '../../lib/client/errors.ts';
import { keepCoverSiteAccessItem } from '../../lib/storage/items.ts';
import { fakePermissions } from './support/permissions.ts';

type Click = (info: { menuItemId: string; srcUrl?: string; pageUrl?: string }, tab?: { id?: number; title?: string; url?: string }) => void;

const IMAGE = 'https://images.example/cover.png';
const SITE = 'https://images.example/*';

let click: Click;
let covers: { set: ReturnType<typeof vi.fn> };
let notes: string[];

beforeEach(() => {
  fakeBrowser.reset();
  notes = [];
  vi.spyOn(fakeBrowser.contextMenus.onClicked, 'addListener').mockImplementation((listener) => {
    click = listener as unknown as Click;
  });
  vi.spyOn(fakeBrowser.runtime, 'getURL').mockImplementation((path: string) => `chrome-extension://shelf${path}`);
  vi.spyOn(fakeBrowser.notifications, 'create').mockImplementation(async (options: { title?: string }) => {
    notes.push(options.title ?? '');
    return 'note';
  });
  covers = { set: vi.fn(async () => ({ bookmark: { title: 'A page', url: 'https://page.example/' }, savedPage: false })) };
  // Under test, wxt/browser is fakeBrowser (WXT's vitest plugin).
  setupCoverMenu(browser, covers as unknown as Covers);
});
afterEach(() => vi.restoreAllMocks());

const setCover = async () => {
  click({ menuItemId: MENU_COVER, srcUrl: IMAGE, pageUrl: 'https://page.example/' }, { id: 1, title: 'A page' });
  await vi.waitFor(() => expect(notes).toHaveLength(1));
};

describe('Set as cover image: the access to the image’s site', () => {
  it('is given back once the cover is set, when it was asked for this cover', async () => {
    const { granted, remove } = fakePermissions([], true);
    await setCover();
    expect(notes).toEqual(['Cover set']);
    expect(covers.set).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(remove).toHaveBeenCalledExactlyOnceWith({ origins: [SITE] }));
    expect(granted.has(SITE)).toBe(false);
  });

  it('is given back when the cover could not be set', async () => {
    const { granted, remove } = fakePermissions([], true);
    covers.set.mockRejectedValue(new ClientError('IMAGE_UNREADABLE', 'The image’s server answered 404'));
    await setCover();
    expect(notes[0]).toMatch(/^Cover not set/);
    await vi.waitFor(() => expect(remove).toHaveBeenCalledOnce());
    expect(granted.has(SITE)).toBe(false);
  });

  it('is kept when the user chose to keep such access', async () => {
    await keepCoverSiteAccessItem.set(true);
    const { granted, remove } = fakePermissions([], true);
    await setCover();
    expect(notes).toEqual(['Cover set']);
    expect(remove).not.toHaveBeenCalled();
    expect(granted.has(SITE)).toBe(true);
  });

  it('is left alone when Shelf had it before the click', async () => {
    const { granted, remove } = fakePermissions([SITE], true);
    await setCover();
    expect(notes).toEqual(['Cover set']);
    expect(remove).not.toHaveBeenCalled();
    expect(granted.has(SITE)).toBe(true);
  });

  it('asks for the host on any port for an image on a port of its own (Firefox lets no request through a pattern with a port), and gives it back', async () => {
    const { granted, remove } = fakePermissions([], true);
    const request = vi.mocked(fakeBrowser.permissions.request);
    click({ menuItemId: MENU_COVER, srcUrl: 'http://images.example:8080/cover.png', pageUrl: 'https://page.example/' }, { id: 1, title: 'A page' });
    await vi.waitFor(() => expect(notes).toEqual(['Cover set']));
    expect(request).toHaveBeenCalledExactlyOnceWith({ origins: ['http://images.example/*'] });
    await vi.waitFor(() => expect(remove).toHaveBeenCalledExactlyOnceWith({ origins: ['http://images.example/*'] }));
    expect(granted.size).toBe(0);
  });

  it('changes nothing when the user refuses it, and reads nothing', async () => {
    const { remove } = fakePermissions([], false);
    await setCover();
    expect(notes[0]).toMatch(/^Cover not set/);
    expect(covers.set).not.toHaveBeenCalled();
    expect(remove).not.toHaveBeenCalled();
  });
});
