/**
 * A value made on first use and kept: a schema at a module's top level that a page may load
 * without needing it yet (issue 37: building zod schemas while the form's chunk was evaluated
 * was the longest task of step 2's load on a phone). `once(() => z.object(…))` is called as a
 * function where the schema is used.
 */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
