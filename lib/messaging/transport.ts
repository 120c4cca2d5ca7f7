import * as z from 'zod/mini';
import { CLIENT_ERROR_CODES, ClientError, toClientError } from '../client/errors.ts';
import { type Handlers, type MessageInput, type MessageName, type MessageOutput, protocol } from './protocol.ts';

const Request = z.object({ name: z.enum(Object.keys(protocol) as [MessageName, ...MessageName[]]), input: z.unknown() });
const SerializedError = z.object({
  code: z.enum(CLIENT_ERROR_CODES),
  message: z.string(),
  status: z.optional(z.number()),
  retryAfterSeconds: z.optional(z.number()),
});
const Reply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: SerializedError }),
]);
type Reply = z.infer<typeof Reply>;

/** The runtime messaging surface both sides need, so that tests can hand in a fake browser. */
export interface Runtime {
  sendMessage(message: unknown): Promise<unknown>;
  onMessage: {
    addListener(listener: (message: unknown, sender: unknown, sendResponse: (reply: unknown) => void) => boolean | undefined): void;
  };
}

/** UI side: sends one message and answers its typed output, or throws the ClientError it carried. */
export async function sendMessage<N extends MessageName>(runtime: Runtime, name: N, input: MessageInput<N>): Promise<MessageOutput<N>> {
  const raw = await runtime.sendMessage({ name, input });
  const reply = Reply.safeParse(raw);
  if (!reply.success) throw new ClientError('BAD_MESSAGE', `The extension's background did not answer ${name}`);
  if (!reply.data.ok) throw ClientError.from(reply.data.error);
  const output = protocol[name].output.safeParse(reply.data.data);
  if (!output.success) throw new ClientError('BAD_MESSAGE', `The extension's background answered ${name} with an unexpected shape`);
  return output.data as MessageOutput<N>;
}

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
  const input = protocol[name].input.safeParse(rawInput);
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
