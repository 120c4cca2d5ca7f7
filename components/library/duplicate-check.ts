import * as z from 'zod/mini';
import { DuplicateGroup } from '../../lib/api/bookmarks.ts';
import { ClientError } from '../../lib/client/errors.ts';
import type { DuplicatesReply, DuplicatesView } from '../../lib/messaging/library-replies.ts';

/** More than a tall window shows (groups are 300 px high) and the virtual list's overscan. */
export const FIRST_CHECKED = 8;
/** Groups checked in one idle slice: a few milliseconds of work, so that scrolling and typing stay smooth meanwhile. */
const SLICE = 50;

/** The groups checked so far, and those of the answer still to check, in its order. */
export interface ShownDuplicates extends DuplicatesView {
  unchecked: readonly unknown[];
}

const Groups = z.array(DuplicateGroup);

function checkGroups(raw: readonly unknown[]): DuplicateGroup[] {
  const checked = Groups.safeParse(raw);
  if (!checked.success) throw new ClientError('BAD_MESSAGE', "The extension's background answered findDuplicates with an unexpected shape");
  return checked.data;
}

/** The answer with its first screen of groups checked (a malformed one throws BAD_MESSAGE), the rest left for checkRest. */
export function checkFirst(reply: z.output<typeof DuplicatesReply>, count = FIRST_CHECKED): ShownDuplicates {
  return { ...reply, groups: checkGroups(reply.groups.slice(0, count)), unchecked: reply.groups.slice(count) };
}

const idle = () => new Promise<void>((resolve) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 100 }) : setTimeout(resolve, 0)));

/** The unchecked groups checked a slice at a time in idle time: all of them, or BAD_MESSAGE at the first malformed one. */
export async function checkRest(unchecked: readonly unknown[], stopped: () => boolean = () => false): Promise<DuplicateGroup[] | undefined> {
  const checked: DuplicateGroup[] = [];
  for (let at = 0; at < unchecked.length; at += SLICE) {
    await idle();
    if (stopped()) return undefined;
    checked.push(...checkGroups(unchecked.slice(at, at + SLICE)));
  }
  return checked;
}
