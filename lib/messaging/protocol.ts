/**
 * Every message the UI may send the background, the only code holding the
 * token and calling the API: requests.ts says what each carries, replies.ts
 * what it answers.
 */
import type * as z from 'zod/mini';
import type { libraryReplies } from './library-replies.ts';
import type { AccountState as AccountStateSchema, replies } from './replies.ts';
import type { requests } from './requests.ts';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8787/v1';

export type AccountState = z.infer<typeof AccountStateSchema>;

/** The popup's messages (replies.ts) and the library pages' (library-replies.ts): two tables, so the popup loads only its own. */
type Replies = typeof replies & typeof libraryReplies;
export type ReplyTable = { [N in MessageName]?: Replies[N] };

export type MessageName = keyof Replies;
export type MessageInput<N extends MessageName> = z.input<(typeof requests)[N]>;
export type MessageOutput<N extends MessageName> = z.output<Replies[N]>;
export type Handlers = {
  [N in MessageName]: (input: z.output<(typeof requests)[N]>) => Promise<MessageOutput<N>>;
};
