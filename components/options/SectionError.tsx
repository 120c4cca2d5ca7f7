import type { ClientError } from '../../lib/client/errors.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { secondaryButtonClass } from '../field-styles.ts';

/** Codes that only a new sign-in cures. */
const SIGN_IN_AGAIN = new Set(['TOKEN_REVOKED', 'TOKEN_EXPIRED', 'INVALID_TOKEN', 'MISSING_TOKEN', 'NOT_SIGNED_IN']);

/** A section's failure in words; for a token that no longer works, a way to the Account section to sign in again. */
export function SectionError({ error }: { error: Pick<ClientError, 'code' | 'message' | 'retryAfterSeconds'> }) {
  return (
    <div className="space-y-2">
      <ErrorAlert error={error} />
      {SIGN_IN_AGAIN.has(error.code) && (
        <a href="#account" className={secondaryButtonClass}>
          Sign in again
        </a>
      )}
    </div>
  );
}
