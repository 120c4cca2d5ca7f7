// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DuplicatesView } from '../../components/library/DuplicatesView.tsx';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { SPEC_LIMITS } from '../../lib/client/scheduler.ts';
import { dataOf } from '../support/expect.ts';
import { signedInLibrary } from './support/library-page.ts';

// The page asks the server for a kept list once per page load (components/library/queries.ts: a module's set, which
// the extension project's files share in a worker), so whether the view asks for it at all depends on the files run
// before this one; when it asks is what this file checks.
const MINUTE = 60_000;
/** The scheduler's heavy-endpoint window (a minute and its margin), and a second more: the next search may go. */
const HEAVY_WINDOW = MINUTE + SPEC_LIMITS.marginMs + 1000;

const server = signedInLibrary({ width: 560, height: 640 });

const requested = (pattern: RegExp) => server.bg.requests.filter((r) => pattern.test(`${r.method} ${new URL(r.url).pathname}`)).map((r) => `${r.method} ${new URL(r.url).pathname}`);

describe('duplicates: the collections beside the search', () => {
  it('names the collections from the kept list with the first groups, and asks the server for its list only once the search has answered', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const reading = dataOf(await server.u.api('POST', '/collections', { body: { name: 'Reading' } }), Collection, 201);
    for (const url of ['http://dup.example/page', 'https://www.dup.example/page/']) {
      await server.t.advance(MINUTE);
      dataOf(await server.u.api('POST', '/bookmarks', { body: { url, title: url, description: 'd', collectionId: reading.id } }), Bookmark, 201);
    }
    // The background keeps the list; renamed since, only the server's list has the new name.
    await server.bg.services.library.collections(true);
    dataOf(await server.u.api('PATCH', `/collections/${reading.id}`, { body: { name: 'Reading list' } }), Collection);
    // Other pages spent this minute's two searches: the view's waits for the budget.
    await server.bg.services.duplicates.find();
    await server.bg.services.duplicates.find();
    server.bg.requests.length = 0;

    render(
      <QueryClientProvider client={libraryQueryClient()}>
        <DuplicatesView />
      </QueryClientProvider>,
    );
    expect(await screen.findByText(/This search can be made twice a minute: it will start in \d+ s\./)).toBeTruthy();
    // The kept names are read; the server is asked for nothing while the search waits.
    await vi.advanceTimersByTimeAsync(1000);
    expect(requested(/^GET \/v1\//)).toEqual([]);

    await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
    const fieldset = await screen.findByRole('group', { name: 'Duplicates of dup.example/page' });
    expect(within(fieldset).getAllByText(/^Reading/)).toHaveLength(2);
    await server.bg.idle();
    const asked = requested(/^GET \/v1\//);
    expect(asked[0]).toBe('GET /v1/bookmarks/duplicates');
    if (asked.length > 1) {
      // The server's list, asked for after the search's answer, renames the collection in the cards.
      expect(asked).toEqual(['GET /v1/bookmarks/duplicates', 'GET /v1/collections']);
      expect(await within(fieldset).findAllByText('Reading list')).toHaveLength(2);
    }
  });
});
