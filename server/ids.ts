import { randomBytes } from 'node:crypto';

/** Prefixed random identifiers, so that an id says what it names (bm_, col_, tag_...). */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(10).toString('hex')}`;
