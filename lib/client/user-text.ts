import type { ClientError, ClientErrorCode } from './errors.ts';
import { isLocalServer } from './server-url.ts';

export interface UserText {
  /** What happened, in a user's words. */
  title: string;
  /** What to do about it. */
  action: string;
}

/** A wait as the user reads it: seconds under two minutes, whole minutes past them. */
export const aboutTime = (seconds: number): string => (seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`);

const minutes = (seconds: number) => {
  const m = Math.ceil(seconds / 60);
  return m <= 1 ? 'a minute' : `${m} minutes`;
};

/** The one mapping from error codes to what a user reads. */
export function describeError(error: Pick<ClientError, 'code' | 'message' | 'retryAfterSeconds'>): UserText {
  const wait = error.retryAfterSeconds;
  const texts: Record<ClientErrorCode, UserText> = {
    MISSING_TOKEN: { title: 'No API token was sent.', action: 'Paste your API token in Shelf’s options and sign in.' },
    INVALID_TOKEN: { title: 'This API token is not valid.', action: 'Check that you copied the whole token (it starts with tok_), or create a new one.' },
    TOKEN_REVOKED: { title: 'This API token has been revoked.', action: 'Sign in again with a new token. Saves waiting meanwhile are kept and sent then.' },
    TOKEN_EXPIRED: { title: 'This API token has expired.', action: 'Sign in again with a new token. Saves waiting meanwhile are kept and sent then.' },
    SCOPE_REQUIRED: { title: 'This token is not allowed to do that.', action: `${error.message}. Create a token with that permission.` },
    API_ACCESS_PRO_REQUIRED: { title: 'API access needs the Pro plan.', action: 'Upgrade the account to Pro, then try again.' },
    RATE_LIMITED: {
      title: 'Too many requests for now.',
      action: wait ? `Shelf can try again in ${wait < 60 ? `${wait} seconds` : minutes(wait)}.` : 'Wait a minute and try again.',
    },
    IP_BLOCKED: {
      title: 'The server has blocked this network after several failed sign-ins.',
      action: wait ? `Try again in ${minutes(wait)}, with a valid token.` : 'Try again in 15 minutes, with a valid token.',
    },
    INVALID_FILE_TYPE: { title: 'That file is not a JPEG, PNG, GIF or WebP image.', action: 'Choose another image.' },
    FILE_TOO_LARGE: { title: 'That image is larger than 10 MB.', action: 'Choose a smaller image.' },
    STORAGE_LIMIT_REACHED: { title: 'Your 500 MB of cover storage is full.', action: 'Remove some covers, then try again.' },
    RESERVATION_INVALID: { title: 'The upload expired or was already used.', action: 'Try again.' },
    TOO_MANY_PENDING_UPLOADS: { title: 'Too many cover uploads are waiting to finish (5 at most).', action: 'Try again when the oldest expires, within 15 minutes.' },
    COVER_NEEDS_PRO: { title: 'Cover images need the Pro plan.', action: 'Nothing was uploaded. Upgrade the account to Pro to set covers.' },
    IMAGE_UNREADABLE: { title: 'Shelf could not read that image.', action: error.message },
    IMAGE_UNSUPPORTED: { title: 'Shelf cannot use that image as a cover.', action: error.message },
    COLLECTION_TOO_LARGE: { title: 'This collection is too large to move to the trash or restore at once (over 1,000 items).', action: error.message },
    SMART_FOLDER_CURSOR_INVALID: { title: 'The smart folder changed while you were browsing it.', action: 'It will reload from the start.' },
    VALIDATION_ERROR: { title: 'Something in the form is not right.', action: error.message },
    NOT_FOUND: { title: 'That item no longer exists.', action: 'It may have been deleted elsewhere; refresh and try again.' },
    CONFLICT: { title: 'That cannot be done right now.', action: error.message },
    PAYLOAD_TOO_LARGE: { title: 'That is too large to send.', action: 'Shorten the text or choose a smaller file.' },
    UNSUPPORTED_MEDIA_TYPE: { title: 'The server did not accept the request format.', action: 'Update Shelf; if it persists, report it.' },
    IDEMPOTENCY_KEY_REUSED: { title: 'Shelf sent this action again with different details, so the server did not carry it out.', action: 'Try the action again.' },
    IDEMPOTENCY_KEY_IN_USE: { title: 'This action is still being carried out.', action: 'Wait a moment; it will finish.' },
    JOB_NOT_READY: { title: 'The job has not finished yet.', action: 'Wait until it completes.' },
    INTERNAL_ERROR: { title: 'The server ran into a problem.', action: 'Nothing was changed. Try again in a moment.' },
    SERVICE_UNAVAILABLE: {
      title: 'The server is briefly unavailable.',
      action: `Nothing was changed. Try again in ${wait && wait >= 60 ? minutes(wait) : `${wait ?? 5} seconds`}.`,
    },
    UNKNOWN_API_ERROR: { title: 'The server refused the request.', action: error.message },
    NETWORK_ERROR: { title: 'Shelf could not reach the server.', action: 'Check the server address in the options and that the server is running, then try again.' },
    MALFORMED_RESPONSE: { title: 'The server answered with something Shelf does not understand.', action: 'Check that the server address points at a Bookmark Library API (it ends in /v1).' },
    NOT_SIGNED_IN: { title: 'You are not signed in.', action: 'Open Shelf’s options and sign in with your API token.' },
    PERMISSION_DENIED: { title: 'Shelf is not allowed to reach that server.', action: 'Sign in again and allow access when your browser asks.' },
    BOOKMARKS_NOT_ALLOWED: {
      title: 'Shelf was not allowed to read this browser’s bookmarks, so nothing was imported.',
      action: 'Click Import this browser’s bookmarks again and allow access when your browser asks.',
    },
    INSECURE_SERVER: { title: 'Over plain http your token would travel unencrypted.', action: 'Use https://, or tick “Send my token unencrypted”.' },
    BAD_MESSAGE: { title: 'Shelf ran into an internal problem.', action: 'Reload the extension; if it persists, report it.' },
    SEARCH_GONE: { title: 'Only the first results of this search could be shown.', action: 'Search again to see them all.' },
  };
  return texts[error.code];
}

/** Where a new API token comes from; a command to run, when there is one, apart from the words. */
export interface TokenHowTo {
  text: string;
  command?: string;
}

/**
 * How to get a token for this server: a local server (this computer or a private network) has no
 * settings page, its tokens come from the admin command; any other server has its own API Tokens settings.
 */
export function newTokenHowTo(serverUrl: string, userId: string | null = null): TokenHowTo {
  if (isLocalServer(serverUrl)) {
    return {
      text: 'Make one on the computer that runs the server (DIR is its data directory):',
      command: `npm run --silent admin -- --data DIR token create --user ${userId ?? 'USER_ID'} --name Shelf --scopes all`,
    };
  }
  const host = URL.canParse(serverUrl) ? new URL(serverUrl).host : 'your server';
  return { text: `Create one in the API Tokens settings of your account on ${host}.` };
}
