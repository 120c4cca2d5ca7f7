import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorEnvelope, successEnvelope } from '../../lib/api/envelope.ts';
import type { ErrorCode } from '../../lib/api/errors.ts';
import type { ApiResponse } from './server.ts';

/** Asserts a success answer and returns its data, parsed with the shared schema. */
export function dataOf<S extends z.core.$ZodType>(res: ApiResponse, schema: S, status = 200): z.output<S> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const envelope = successEnvelope(schema).parse(res.body) as { data: z.output<S> };
  return envelope.data;
}

/** Asserts an error answer with the given status and code; returns the message. */
export function expectError(res: ApiResponse, status: number, code: ErrorCode): string {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code } } });
  return ErrorEnvelope.parse(res.body).error.message;
}
