/**
 * Every message the UI may send the background, the only code holding the
 * token and calling the API: requests.ts says what each carries, replies.ts
 * what it answers.
 */
import type * as z from 'zod/mini';
import type { AccountState as AccountStateSchema, replies } from './replies.ts';
import type { requests } from './requests.ts';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8787/v1';

export type AccountState = z.infer<typeof AccountStateSchema>;

export type MessageName = keyof typeof replies;
export type MessageInput<N extends MessageName> = z.input<(typeof requests)[N]>;
export type MessageOutput<N extends MessageName> = z.output<(typeof replies)[N]>;
export type Handlers = {
  [N in MessageName]: (input: z.output<(typeof requests)[N]>) => Promise<MessageOutput<N>>;
};
