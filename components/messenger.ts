import { browser } from 'wxt/browser';
import type { MessageInput, MessageName, MessageOutput, ReplyTable } from '../lib/messaging/protocol.ts';
import { replies } from '../lib/messaging/replies.ts';
import { takeEarly } from '../lib/messaging/early-messages.ts';
import { type Runtime, readReply, sendMessage } from '../lib/messaging/transport.ts';

/** A test's runtime; otherwise the browser's, taken at each message (the build pre-renders the popup in Node, where there is none). */
let runtime: Runtime | undefined;

/** Tests hand in a runtime answered by the real background handlers (fakeBrowser's has no sendResponse). */
export function setRuntime(next: Runtime): void {
  runtime = next;
}

/** A sender that checks answers with `table`: each page passes the replies it may meet, so the popup loads only its own. */
export const messenger =
  (table: ReplyTable) =>
  <N extends MessageName>(name: N, input: MessageInput<N>): Promise<MessageOutput<N>> =>
    sendMessage(runtime ?? (browser.runtime as unknown as Runtime), table, name, input);

/** A messenger that first takes the page's early script's reply to the message (lib/messaging/early-messages.ts), checked the same way. */
export const earlyFirst =
  (table: ReplyTable) =>
  <N extends MessageName>(name: N, input: MessageInput<N>): Promise<MessageOutput<N>> => {
    const early = takeEarly(window, name);
    const fresh = () => messenger(table)(name, input);
    // An early message that never reached the background (sent as it was starting, say) is sent again.
    return early ? early.then((raw) => readReply(table, name, raw), fresh) : fresh();
  };

/** The one way the popup and the account pages talk to the background. */
export const send = messenger(replies);
