/**
 * A schema made the first time it is used. The pages' shared chunk holds every schema their messages may carry,
 * and making zod schemas was most of that chunk's start (the options page's module evaluation); a page now makes
 * only those it parses with. The answer stands for the schema in every way (its type, its methods, zod's checks
 * and `instanceof`), so importers use it as they would the schema itself.
 */
// @__NO_SIDE_EFFECTS__
export function lazySchema<T extends object>(make: () => T): T {
  let made: T | undefined;
  const schema = (): T => (made ??= make());
  // The target is an empty stand-in: every trap answers from the made schema.
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported as configurable: a proxy may not report a fixed property its (empty) target lacks.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
