// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { setRuntime } from '../../components/messenger.ts';
import { QuickSaveSection } from '../../components/options/quick-save/QuickSaveSection.tsx';
import { Collection } from '../../lib/api/collections.ts';
import { quickSaveTargetItem } from '../../lib/storage/items.ts';
import { dataOf } from '../support/expect.ts';
import type { TestUser } from '../support/server.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';
import { libraryPageServer } from './support/library-page.ts';

const server = libraryPageServer({ width: 560, height: 480 });
let bg: TestBackground;
let u: TestUser;
let user: UserEvent;

beforeEach(async () => {
  fakeBrowser.reset();
  bg = createTestBackground();
  setRuntime(bg.runtime);
  user = userEvent.setup();
  u = await server.t.user();
  await bg.services.account.signIn(server.t.baseUrl, u.token);
  await bg.idle();
});
afterEach(async () => {
  cleanup();
  await bg.idle();
});

const collection = async (name: string, parentId: string | null = null) => dataOf(await u.api('POST', '/collections', { body: { name, parentId } }), Collection, 201);

function show(): void {
  render(
    <QueryClientProvider client={libraryQueryClient()}>
      <QuickSaveSection />
    </QueryClientProvider>,
  );
}

const radio = (name: string) => screen.findByRole<HTMLInputElement>('radio', { name: new RegExp(`^${name}`) });

describe('options: quick saves', () => {
  it('starts at Unsorted and keeps each choice the user makes', async () => {
    const work = await collection('Work');
    const projects = await collection('Projects', work.id);
    show();
    await waitFor(async () => expect((await radio('Unsorted')).checked).toBe(true));

    await user.click(await radio('The last collection you saved to'));
    await waitFor(async () => expect(await quickSaveTargetItem.get()).toEqual({ kind: 'last' }));

    const chosen = await radio('A collection you choose');
    await waitFor(() => expect(chosen.disabled).toBe(false));
    await user.click(chosen);
    const picker = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Collection for quick saves' });
    expect([...picker.options].map((o) => o.text)).toEqual(['Work', 'Work › Projects']);
    await user.selectOptions(picker, 'Work › Projects');
    await waitFor(async () => expect(await quickSaveTargetItem.get()).toEqual({ kind: 'collection', collectionId: projects.id }));
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(await radio('Unsorted'));
    await waitFor(async () => expect(await quickSaveTargetItem.get()).toEqual({ kind: 'unsorted' }));
    expect(screen.queryByRole('combobox', { name: 'Collection for quick saves' })).toBeNull();
  });

  it('says so when the chosen collection is gone, and that quick saves go to Unsorted until another is chosen', async () => {
    const work = await collection('Work');
    const home = await collection('Home');
    await quickSaveTargetItem.set({ kind: 'collection', collectionId: work.id });
    expect((await u.api('DELETE', `/collections/${work.id}`)).status).toBe(200);
    show();

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The collection you chose for quick saves is no longer in your library (deleted or in the trash), so quick saves go to Unsorted. Choose another one.',
    );
    const picker = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Collection for quick saves' });
    expect(picker.selectedOptions[0]?.text).toBe('No longer in your library');
    await user.selectOptions(picker, 'Home');
    await waitFor(async () => expect(await quickSaveTargetItem.get()).toEqual({ kind: 'collection', collectionId: home.id }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('cannot choose a collection before there is one, and says where to make it', async () => {
    show();
    await screen.findByText('You have no collections yet: make one under Collections first.');
    expect((await radio('A collection you choose')).disabled).toBe(true);
  });
});
