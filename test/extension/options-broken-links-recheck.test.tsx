// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import { closeDom } from './support/dom.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { setRuntime } from '../../components/messenger.ts';
import { BrokenLinksSection } from '../../components/options/broken-links/BrokenLinksSection.tsx';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { LINK_CHECK_DEFAULTS } from '../../server/config.ts';
import { dataOf } from '../support/expect.ts';
import { type TestServer, startTestServer } from '../support/server.ts';
import { createTestBackground } from './support/background.ts';

/** Re-check against a server whose link checker runs (this computer's pages allowed), on a local page that comes back. */
let t: TestServer;
let page: http.Server;
let answer = 404;

beforeAll(async () => {
  page = http.createServer((_req, res) => void res.writeHead(answer, { 'Content-Type': 'text/html' }).end('<title>Page</title>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  // Polls only when woken: the test decides when a check runs.
  t = await startTestServer({ allowPrivateFetch: true, linkCheck: { ...LINK_CHECK_DEFAULTS, enabled: true, hostPaceMs: 0, timeoutMs: 2000, pollMs: 3_600_000 } });
});
afterAll(async () => {
  await t.close();
  page.closeAllConnections();
  await new Promise((resolve) => page.close(resolve));
  await closeDom();
});

const runCheck = async () => {
  t.server.deps.linkChecker.wake();
  await t.server.deps.linkChecker.idle();
};

function show(): void {
  render(
    <QueryClientProvider client={libraryQueryClient()}>
      <BrokenLinksSection />
    </QueryClientProvider>,
  );
}

/** Signed in, a bookmark of the local page at `path` saved while it answers 404, and its link checked. */
async function brokenLinkSaved(path: string, title: string) {
  fakeBrowser.reset();
  const bg = createTestBackground();
  setRuntime(bg.runtime);
  const user = userEvent.setup();
  const u = await t.user();
  await bg.services.account.signIn(t.baseUrl, u.token);
  answer = 404;
  const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}${path}`;
  const saved = dataOf(await u.api('POST', '/bookmarks', { body: { url, title, description: 'd' } }), Bookmark, 201);
  await runCheck();
  return { bg, user, u, saved };
}

it('Re-check asks the server to check the link again: a page answering again leaves the Gone group of the open view', async () => {
  const { bg, user, u, saved } = await brokenLinkSaved('/article', 'Local article');
  expect(dataOf(await u.api('GET', `/bookmarks/${saved.id}`), Bookmark)).toMatchObject({ linkStatus: 'broken', httpStatusCode: 404 });
  show();
  const gone = await screen.findByRole('region', { name: /^Gone \(1\)$/ });
  expect(await within(gone).findByText(/Answered 404/)).toBeTruthy();
  await user.click(within(gone).getByRole('checkbox', { name: 'Select Local article' }));

  answer = 200;
  await user.click(within(gone).getByRole('button', { name: 'Re-check Local article' }));
  expect((await screen.findByText(/^Queued for a re-check/)).getAttribute('role')).toBe('status');
  await runCheck();
  expect(dataOf(await u.api('GET', `/bookmarks/${saved.id}`), Bookmark)).toMatchObject({ linkStatus: 'ok', httpStatusCode: 200 });

  // The open view shows it by itself: the link left its group, and the line says why.
  expect(await screen.findByText('No broken links found.', undefined, { timeout: 10_000 })).toBeTruthy();
  expect(screen.queryByText('Local article')).toBeNull();
  expect(screen.getByRole('status').textContent).toBe('Re-checked: 1 link works again.');
  // It is no longer among the chosen either.
  expect(screen.getByText('0 selected')).toBeTruthy();
  await bg.idle();
});

it('a link that still fails after a re-check shows its new answer in the group it now belongs to', async () => {
  cleanup();
  const { bg, user, u, saved } = await brokenLinkSaved('/failing', 'Failing article');
  show();
  const gone = await screen.findByRole('region', { name: /^Gone \(1\)$/ });

  answer = 503;
  await user.click(await within(gone).findByRole('button', { name: 'Re-check Failing article' }));
  await runCheck();
  expect(dataOf(await u.api('GET', `/bookmarks/${saved.id}`), Bookmark)).toMatchObject({ linkStatus: 'error', httpStatusCode: 503 });

  const error = await screen.findByRole('region', { name: /^Error \(1\)$/ }, { timeout: 10_000 });
  expect(await within(error).findByText('Failing article')).toBeTruthy();
  expect(within(error).getByText(/Answered 503/)).toBeTruthy();
  expect(screen.queryByRole('region', { name: /^Gone/ })).toBeNull();
  expect(await screen.findByText('Re-checked: 1 link still not working.')).toBeTruthy();
  await bg.idle();
});
