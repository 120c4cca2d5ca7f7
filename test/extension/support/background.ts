import { vi } from 'vitest';
import { browser } from 'wxt/browser';
import type { CardCover } from '../../../lib/image/card-cover.ts';
import type { Handlers } from '../../../lib/messaging/protocol.ts';
import { handleMessages } from '../../../lib/messaging/receive.ts';
import type { Runtime } from '../../../lib/messaging/transport.ts';
import { Account } from '../../../entrypoints/background/account.ts';
import { createHandlers, type Services } from '../../../entrypoints/background/handlers.ts';
import { type Clock, RequestScheduler } from '../../../lib/client/scheduler.ts';
import { createServices } from '../../../entrypoints/background/services.ts';
import type { TestServer } from '../../support/server.ts';
import { ShiftedClock } from '../../support/manual-clock.ts';
import { LOOPBACK_EXTENSION, createLoopbackRuntime } from './loopback-runtime.ts';

export interface SentRequest {
  method: string;
  url: string;
  /** The answer's status: undefined while under way, 0 when none came. */
  status?: number;
}

export interface TestBackground {
  services: Services;
  handlers: Handlers;
  /** Answered by the real handlers, as the background answers extension pages. */
  runtime: Runtime;
  /** Every HTTP request the background made, in order. */
  requests: SentRequest[];
  /** Resolves once no request is under way (the index sync after a sign-in runs behind its answer). */
  idle(): Promise<void>;
  /** The one gate of the background's requests: a test may spend its budget first. */
  scheduler: RequestScheduler;
}

/**
 * The background's real services and handlers (wired as startBackground wires
 * them) over fakeBrowser, with the network counted and host permission granted
 * unless a test says otherwise.
 */
export function createTestBackground(
  options: { hasHostPermission?: (origin: string) => Promise<boolean>; clock?: Clock; coverOfTab?: (tabId: number) => Promise<CardCover | null> } = {},
): TestBackground {
  const requests: SentRequest[] = [];
  let pending = 0;
  const countingFetch: typeof fetch = async (input, init) => {
    const sent: SentRequest = { method: init?.method ?? 'GET', url: input instanceof Request ? input.url : String(input) };
    requests.push(sent);
    pending++;
    try {
      // Read whole, so that "under way" lasts until the body is in.
      const response = await fetch(input, init);
      sent.status = response.status;
      return new Response(await response.arrayBuffer(), response);
    } finally {
      pending--;
      sent.status ??= 0; // no answer
    }
  };
  const idle = async () => {
    // A few turns: the work after a response (storage writes, the icon) may start another request.
    for (let quiet = 0; quiet < 3; quiet = pending === 0 ? quiet + 1 : 0) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const clock = options.clock ?? new ShiftedClock();
  const scheduler = new RequestScheduler({ clock, onTokenRefused: (error, credential) => void account.tokenRefused(error, credential) });
  const account: Account = new Account({
    scheduler,
    onSignedIn: () => void services.queue.drain(true),
    fetch: countingFetch,
    hasHostPermission: options.hasHostPermission ?? (() => Promise.resolve(true)),
  });
  const services = createServices(account, scheduler, browser, countingFetch, options.coverOfTab ?? (() => Promise.resolve(null)));
  const handlers = createHandlers(services);
  const runtime = createLoopbackRuntime();
  handleMessages(runtime, handlers, LOOPBACK_EXTENSION);
  return { services, handlers, runtime, requests, idle, scheduler };
}

/** The server fetches a saved page for what a save leaves out; tests have no network, so this answers for every page. */
export function stubPageFetch(t: TestServer, page: { title: string; description: string } = { title: 'Title from the page', description: 'Description from the page' }): void {
  vi.spyOn(t.server.deps, 'fetchMetadata').mockResolvedValue({
    ...page,
    excerpt: '',
    favicon: '',
    type: 'article',
    httpStatus: 200,
    linkStatus: 'ok',
    fetched: true,
  });
}
