/** The services a hosted instance cannot answer without. */
export type Backend = 'PostgreSQL' | 'Redis';

/**
 * A backend could not be reached in time (refused, reset, timed out, restarting):
 * the request is answered 503 SERVICE_UNAVAILABLE with Retry-After, never 500, and
 * nothing it would have done is done without it (limits fail closed).
 */
export class BackendUnavailable extends Error {
  constructor(
    readonly backend: Backend,
    cause: unknown,
  ) {
    super(`${backend} is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BackendUnavailable';
  }
}

/** Seconds a client should wait after a 503: about how long a restarted Redis or PostgreSQL takes to be back. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
