import { earlyFirst, messenger } from '../messenger.ts';
import { libraryReplies } from '../../lib/messaging/library-replies.ts';
import { replies } from '../../lib/messaging/replies.ts';

/** How the library pages (side panel, options sections) talk to the background: every message, every answer checked. */
const table = { ...replies, ...libraryReplies };
export const sendLibrary = messenger(table);

/** sendLibrary for a page's opening message, which its early script may have sent already. */
export const sendLibraryEarlyFirst = earlyFirst(table);
