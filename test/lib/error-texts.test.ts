import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_ERROR_CODES, type ClientErrorCode } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';

const text = (code: ClientErrorCode) => describeError({ code, message: 'What the server said', retryAfterSeconds: undefined });

// The codes of the library pages' own actions: their texts are left out of the popup's build.
const LIBRARY_ONLY: ClientErrorCode[] = [
  'INVALID_FILE_TYPE',
  'FILE_TOO_LARGE',
  'STORAGE_LIMIT_REACHED',
  'RESERVATION_INVALID',
  'TOO_MANY_PENDING_UPLOADS',
  'COVER_NEEDS_PRO',
  'IMAGE_UNREADABLE',
  'IMAGE_UNSUPPORTED',
  'COLLECTION_TOO_LARGE',
  'SMART_FOLDER_CURSOR_INVALID',
  'JOB_NOT_READY',
  'BOOKMARKS_NOT_ALLOWED',
  'SEARCH_GONE',
  'INSECURE_SERVER',
];

describe('the error texts', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('say each code in words of its own outside the popup', () => {
    const internal = text('BAD_MESSAGE');
    for (const code of CLIENT_ERROR_CODES.filter((c) => c !== 'BAD_MESSAGE')) {
      expect(text(code).title, code).not.toBe(internal.title);
      expect(text(code).title, code).toMatch(/\.$/);
    }
    expect(text('IMAGE_UNREADABLE')).toEqual({ title: 'Shelf could not read that image.', action: 'What the server said' });
  });

  it('in the popup’s build, keep the texts of the codes the popup meets and leave out the library pages’ own', () => {
    const outside = Object.fromEntries(CLIENT_ERROR_CODES.map((code) => [code, text(code)]));
    // wxt.config.ts defines it for the popup's build alone.
    vi.stubEnv('SHELF_POPUP_BUILD', 'true');
    for (const code of CLIENT_ERROR_CODES) {
      expect(text(code), code).toEqual(LIBRARY_ONLY.includes(code) ? outside.BAD_MESSAGE : outside[code]);
    }
    expect(text('NOT_FOUND').title).toBe('That item no longer exists.');
    expect(text('STORAGE_LIMIT_REACHED')).toEqual({ title: 'Shelf ran into an internal problem.', action: 'Reload the extension; if it persists, report it.' });
  });
});
