import { messenger } from '../messenger.ts';
import { libraryReplies } from '../../lib/messaging/library-replies.ts';
import { replies } from '../../lib/messaging/replies.ts';

/** How the library pages (side panel, options sections) talk to the background: every message, every answer checked. */
export const sendLibrary = messenger({ ...replies, ...libraryReplies });
