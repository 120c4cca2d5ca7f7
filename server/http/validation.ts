import * as z from 'zod/mini';
import { type InputPlace, invalidInput } from './api-error.ts';
import { issueMessage } from './issue-messages.ts';

// Every parse in the server speaks the API's own wording (and no zod locale is loaded).
z.config({ customError: issueMessage });

/**
 * Parses with a shared schema; a failure becomes VALIDATION_ERROR naming each field and its
 * problem. No body reads as an empty object, so that a route that needs one names the
 * fields it misses.
 */
export function validate<S extends z.core.$ZodType>(schema: S, value: unknown, where: Exclude<InputPlace, 'header'>): z.output<S> {
  const result = z.safeParse(schema, where === 'body' && value === undefined ? {} : value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  throw invalidInput(where, problems);
}
