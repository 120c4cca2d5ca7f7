import { ClientError, needsSignIn } from '../../lib/client/errors.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { secondaryButtonClass } from '../field-styles.ts';

type Failure = Pick<ClientError, 'code' | 'message' | 'retryAfterSeconds'>;

/** A section's failure in words, and for a token that no longer works, the way to the Account section. */
export function SectionError({ error }: { error: Failure }) {
  return (
    <div className="space-y-2">
      <ErrorAlert error={error} />
      {needsSignIn(error.code) && (
        <a href="#account" className={secondaryButtonClass}>
          Sign in again
        </a>
      )}
    </div>
  );
}

/** What a query or mutation failed with (the messenger rejects with ClientErrors; anything else is the extension's own fault). */
export const failureOf = (error: unknown): ClientError | null =>
  error === null || error === undefined ? null : error instanceof ClientError ? error : new ClientError('BAD_MESSAGE', String(error));
