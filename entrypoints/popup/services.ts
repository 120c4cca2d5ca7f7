/**
 * What the popup needs of the background and of storage, run apart from the
 * first frame: the zod-checked messenger and storage items are most of the
 * popup's JavaScript, and the form paints (with Save working) before they run.
 */
import type { MessageInput, MessageName, MessageOutput } from '../../lib/messaging/protocol.ts';

const load = () => import('./services-module.ts');
let loading: ReturnType<typeof load> | undefined;

/** The services module, fetched once; the first call starts it. */
export const services = (): ReturnType<typeof load> => (loading ??= load());

/** components/messenger's send, once its module is loaded. */
export const send = async <N extends MessageName>(name: N, input: MessageInput<N>): Promise<MessageOutput<N>> => (await services()).send(name, input);
