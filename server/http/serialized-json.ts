/**
 * A handler's data already serialized as JSON (UTF-8), for data too large to serialize on the
 * event loop without holding other users' requests: the router sends and caches these bytes as
 * they are. `T` is the data the bytes hold, so that a route is still typed by its endpoint.
 */
export class SerializedJson<T> {
  declare private readonly data: T;
  /** The JSON's bytes in order, in parts when they were put together from pieces (the router caches and sends the parts as they are). */
  readonly parts: readonly Uint8Array[];

  constructor(...parts: Uint8Array[]) {
    this.parts = parts;
  }
}
