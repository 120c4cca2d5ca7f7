import * as z from 'zod/mini';
import { CLIENT_ERROR_CODES } from '../client/errors.ts';
import { typedItem } from './typed-item.ts';
import { lazySchema } from '../api/lazy-schema.ts';

/** Where *Save all tabs* has come: the popup's one progress line reads it as the background writes it. */
export const SaveAllProgress = lazySchema(() => z.object({
  /** The window's web pages (http and https; the same page in two tabs counts once). */
  total: z.number(),
  /** Tabs left out: browser and local pages, which Shelf cannot save. */
  notWeb: z.number(),
  saved: z.number(),
  /** Pages saved before: left as they are. */
  skipped: z.number(),
  /** In the save queue: the server could not take them now (offline, busy, the request budget); they go later. */
  waiting: z.number(),
  /** When the last of them goes (epoch ms), where the extension's own request budget alone holds them back; null when the server decides. */
  goesAt: z.optional(z.nullable(z.number())),
  failed: z.number(),
  /** Why the last failed page was refused. */
  error: z.nullable(z.object({ code: z.enum(CLIENT_ERROR_CODES), message: z.string() })),
  running: z.boolean(),
}));
export type SaveAllProgress = z.infer<typeof SaveAllProgress>;

export const saveAllTabsItem = typedItem('local:saveAllTabs', z.nullable(SaveAllProgress), { fallback: null, onInvalid: 'fallback' });
