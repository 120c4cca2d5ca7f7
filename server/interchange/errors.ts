/** Thrown only when a file matches no known format at all; bad entries are skipped instead. */
export class UnsupportedFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedFormatError';
  }
}
