import * as z from 'zod/mini';
import { toClientError } from '../client/errors.ts';
import type { Handlers, MessageName } from './protocol.ts';
import { requests } from './requests.ts';
import type { Reply, Runtime } from './transport.ts';

const Request = z.object({ name: z.enum(Object.keys(requests) as [MessageName, ...MessageName[]]), input: z.unknown() });

/** Background side: validates every message and turns every failure into a serialized error. */
export function handleMessages(runtime: Runtime, handlers: Handlers): void {
  runtime.onMessage.addListener((message, _sender, sendResponse) => {
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
