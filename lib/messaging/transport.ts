import * as z from 'zod/mini';
import { CLIENT_ERROR_CODES, ClientError } from '../client/errors.ts';
import type { MessageInput, MessageName, MessageOutput, ReplyTable } from './protocol.ts';
import { lazySchema } from '../api/lazy-schema.ts';

const SerializedError = lazySchema(() => z.object({
  code: z.enum(CLIENT_ERROR_CODES),
  message: z.string(),
  status: z.optional(z.number()),
  retryAfterSeconds: z.optional(z.number()),
}));
// A plain union: the popup, which reads every reply through it, then bundles no discriminated union of zod's (1.6 kB).
const Reply = lazySchema(() => z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: SerializedError }),
]));
export type Reply = z.infer<typeof Reply>;

/** The runtime messaging surface both sides need, so that tests can hand in a fake browser. */
export interface Runtime {
  sendMessage(message: unknown): Promise<unknown>;
  onMessage: {
    addListener(listener: (message: unknown, sender: unknown, sendResponse: (reply: unknown) => void) => boolean | undefined): void;
  };
}

/** UI side: sends one message and answers its typed output (checked with the page's reply table), or throws the ClientError it carried. */
export async function sendMessage<N extends MessageName>(runtime: Runtime, table: ReplyTable, name: N, input: MessageInput<N>): Promise<MessageOutput<N>> {
  return readReply(table, name, await runtime.sendMessage({ name, input }));
}

/** The typed output of the background's raw reply to `name` (checked with the page's reply table), or the ClientError it carried. */
export function readReply<N extends MessageName>(table: ReplyTable, name: N, raw: unknown): MessageOutput<N> {
  const reply = Reply.safeParse(raw);
  if (!reply.success) throw new ClientError('BAD_MESSAGE', `The extension's background did not answer ${name}`);
  if (!reply.data.ok) throw ClientError.from(reply.data.error);
  // A name missing from the page's table is a fault of ours, answered like a wrong shape.
  const output = table[name]?.safeParse(reply.data.data);
  if (!output?.success) throw new ClientError('BAD_MESSAGE', `The extension's background answered ${name} with an unexpected shape`);
  return output.data as MessageOutput<N>;
}
