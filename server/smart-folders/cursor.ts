import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ApiError, invalid } from '../http/api-error.ts';
import { EVALUATION_LIMITS } from './limits.ts';

const count = (max: number) => z.number().int().min(0).max(max);
const position = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
/** Any time a row can hold: values stored before imports checked dates may be above 2^53 or fractional. */
const time = z.number();

/** Where an exact-tag walk stopped: bound to the rules version and the tag it walks. */
const TagCursor = z.strictObject({
  kind: z.literal('tag'),
  rulesVersion: z.number().int().min(1),
  tagId: z.string().max(64),
  afterMembership: position,
  returned: count(EVALUATION_LIMITS.resultCap),
});
/** Where a newest-first scan stopped, and what it has spent of the evaluation's limits. */
const ScanCursor = z.strictObject({
  kind: z.literal('scan'),
  createdAt: time,
  seq: position,
  scanned: count(EVALUATION_LIMITS.scanLimit),
  returned: count(EVALUATION_LIMITS.resultCap),
});
const CursorState = z.discriminatedUnion('kind', [TagCursor, ScanCursor]);

export type TagCursor = z.infer<typeof TagCursor>;
export type ScanCursor = z.infer<typeof ScanCursor>;
export type CursorState = z.infer<typeof CursorState>;

const SIGNATURE_BYTES = 16;

const signature = (body: string, key: string): Buffer =>
  createHmac('sha256', key).update(body).digest().subarray(0, SIGNATURE_BYTES);

/** `<base64url JSON>.<base64url HMAC>`: opaque to clients, and signed with the folder's own key. */
export function encodeCursor(state: CursorState, key: string): string {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${signature(body, key).toString('base64url')}`;
}

/** Refuses (VALIDATION_ERROR) anything this folder did not sign: garbage, edits, another folder's cursors. */
export function decodeCursor(token: string, key: string): CursorState {
  const parts = token.split('.');
  const [body, sig] = parts;
  if (parts.length !== 2 || body === undefined || sig === undefined) throw notACursor();
  // Compared as text: base64url decoding is lenient, and a cursor has exactly one spelling.
  const given = Buffer.from(sig);
  const expected = Buffer.from(signature(body, key).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notACursor();
  const state = CursorState.safeParse(parseJson(Buffer.from(body, 'base64url').toString('utf8')));
  if (!state.success) throw notACursor();
  return state.data;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const notACursor = (): ApiError => invalid('query', 'cursor', 'is not a cursor of this smart folder; start again without a cursor');

export const rulesChanged = (): ApiError =>
  new ApiError(
    'SMART_FOLDER_CURSOR_INVALID',
    'The smart folder rules changed since this cursor was issued; start again without a cursor',
  );
