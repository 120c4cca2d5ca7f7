import * as z from 'zod/mini';
import { TagName } from './bookmarks.ts';
import { Color } from './color.ts';
import { Id } from './common.ts';
import { Tag } from './tags.ts';
import { lazySchema } from './lazy-schema.ts';

// Apart from tags.ts: the popup loads that module, and these only the options page and the background need.

export const CreateTagBody = lazySchema(() => z.strictObject({ name: TagName, color: z.optional(Color) }));

export const RenameTagBody = lazySchema(() => z.strictObject({ newName: TagName }));

export const MergeTagsBody = lazySchema(() => z.strictObject({ sourceTagId: Id, targetTagId: Id }));

export const MergeResult = lazySchema(() => z.object({ target: Tag, moved: z.number() }));

export const TagDeletedResult = lazySchema(() => z.object({ id: Id, deleted: z.literal(true), tags: z.number() }));
