import { browser } from 'wxt/browser';
import type { MessageInput, MessageName, MessageOutput } from '../lib/messaging/protocol.ts';
import { type Runtime, sendMessage } from '../lib/messaging/transport.ts';

let runtime: Runtime = browser.runtime as unknown as Runtime;

/** Tests hand in a runtime answered by the real background handlers (fakeBrowser's has no sendResponse). */
export function setRuntime(next: Runtime): void {
  runtime = next;
}

/** The one way UI code talks to the background. */
export const send = <N extends MessageName>(name: N, input: MessageInput<N>): Promise<MessageOutput<N>> => sendMessage(runtime, name, input);
