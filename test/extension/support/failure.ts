import { expect } from 'vitest';
import { ClientError } from '../../../lib/client/errors.ts';

/** The ClientError a call fails with (the test fails if it succeeds or throws anything else). */
export async function failure(call: Promise<unknown>): Promise<ClientError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClientError);
  return err as ClientError;
}
