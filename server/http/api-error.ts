import { type ErrorCode, errorStatus } from '../../lib/api/errors.ts';

/** The one error type routes and stores throw; the error mapper turns it into the envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorStatus[code];
    this.headers = headers;
  }
}

export const notFound = (what: string, id?: string): ApiError =>
  new ApiError('NOT_FOUND', id === undefined ? `${what} not found` : `${what} ${id} not found`);

export const invalid = (field: string, problem: string): ApiError =>
  new ApiError('VALIDATION_ERROR', `${field}: ${problem}`);

export const conflict = (message: string): ApiError => new ApiError('CONFLICT', message);
