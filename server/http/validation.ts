import * as z from 'zod/mini';
import { ApiError } from './api-error.ts';

// zod/mini loads no locale (the popup's bundle stays small); the API answers with zod's English messages.
z.config(z.locales.en());

/** Parses with a shared schema; a failure becomes VALIDATION_ERROR naming each field and its problem. */
export function validate<S extends z.core.$ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'path'): z.output<S> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : where;
    return `${field}: ${describe(issue)}`;
  });
  throw new ApiError('VALIDATION_ERROR', `Invalid ${where === 'path' ? 'path parameter' : where}: ${problems.join('; ')}`);
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`;
  return issue.message;
}
