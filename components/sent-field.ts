import type { Dispatch, SetStateAction } from 'react';

/**
 * Empties a form's field once what it held has been sent and made, unless the user has typed something else
 * meanwhile: a slow answer must not wipe the next name they began while the first was being created.
 */
export function emptyIfStill(set: Dispatch<SetStateAction<string>>, sent: string): void {
  set((now) => (now === sent ? '' : now));
}
