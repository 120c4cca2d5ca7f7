import * as z from 'zod/mini';
import { toClientError } from '../client/errors.ts';
import type { Handlers, MessageName } from './protocol.ts';
import { requests } from './requests.ts';
import type { Reply, Runtime } from './transport.ts';
import { lazySchema } from '../api/lazy-schema.ts';

const Request = lazySchema(() => z.object({ name: z.enum(Object.keys(requests) as [MessageName, ...MessageName[]]), input: z.unknown() }));

/** Who may ask the background for anything: this extension's own pages. */
export interface OwnPages {
  /** The extension's id. */
  id: string;
  /** Where its pages live, ending in a slash: runtime.getURL('/') (chrome-extension://<id>/, moz-extension://<uuid>/). */
  root: string;
}

const Sender = lazySchema(() => z.object({ id: z.optional(z.string()), url: z.optional(z.string()) }));

/**
 * Only this extension's pages: a content script (whose sender is the web page it
 * runs in), another extension or a web page never gets an answer, so none can
 * read the account or make the background act with the token.
 */
export function isOwnPage(sender: unknown, own: OwnPages): boolean {
  const parsed = Sender.safeParse(sender);
  // By prefix, not URL.origin: an extension scheme's origin is "null" outside the browser's own URL parser.
  return parsed.success && parsed.data.id === own.id && parsed.data.url !== undefined && own.root.endsWith('/') && parsed.data.url.startsWith(own.root);
}

/** Background side: validates every message and its sender, and turns every failure into a serialized error. */
export function handleMessages(runtime: Runtime, handlers: Handlers, own: OwnPages): void {
  runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!isOwnPage(sender, own)) return undefined; // no answer at all: the caller learns nothing
    const request = Request.safeParse(message);
    if (!request.success) return undefined; // not ours: let other listeners answer
    void dispatch(handlers, request.data.name, request.data.input).then(sendResponse);
    return true; // the answer comes asynchronously
  });
}

async function dispatch(handlers: Handlers, name: MessageName, rawInput: unknown): Promise<Reply> {
  const input = requests[name].safeParse(rawInput);
  if (!input.success) {
    const problem = input.error.issues[0];
    const where = problem?.path.join('.') || 'input';
    return { ok: false, error: { code: 'VALIDATION_ERROR', message: `${where}: ${problem?.message ?? 'invalid'}` } };
  }
  try {
    const handler = handlers[name] as (input: unknown) => Promise<unknown>;
    return { ok: true, data: await handler(input.data) };
  } catch (err) {
    return { ok: false, error: toClientError(err).toJSON() };
  }
}
