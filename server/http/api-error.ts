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

/** Where an invalid value came from, as every VALIDATION_ERROR message starts: "Invalid body: ...". */
export const INPUT_PLACE = { body: 'body', query: 'query', path: 'path parameter', header: 'header' } as const;
export type InputPlace = keyof typeof INPUT_PLACE;

/** The one wording of a VALIDATION_ERROR: "Invalid body: tags: expected an array of strings, got a string". */
export const invalidInput = (where: InputPlace, problems: readonly string[]): ApiError =>
  new ApiError('VALIDATION_ERROR', `Invalid ${INPUT_PLACE[where]}: ${problems.join('; ')}`);

export const invalid = (where: InputPlace, field: string, problem: string): ApiError => invalidInput(where, [`${field}: ${problem}`]);

export const conflict = (message: string): ApiError => new ApiError('CONFLICT', message);
