/** Positional parameters ($1, $2...) collected while a statement whose shape depends on the request is put together. */
export class Params {
  readonly values: unknown[] = [];

  /** The placeholder of a new parameter holding `value`. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
