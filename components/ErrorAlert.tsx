import type { ClientError } from '../lib/client/errors.ts';
import { describeError } from '../lib/client/user-text.ts';

/** A failure in the user's words (describeError's), announced to screen readers as it appears. */
export function ErrorAlert({ error }: { error: Pick<ClientError, 'code' | 'message' | 'retryAfterSeconds'> }) {
  const text = describeError(error);
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-medium">{text.title}</p>
      <p>{text.action}</p>
    </div>
  );
}
