/**
 * What the server still waits for before it can answer everything correctly (GET /readyz says
 * 503 and names them until the list is empty). Today: the validity index's first load, which
 * starts when the app becomes ready, after start-up work such as the demo data.
 */
export interface Readiness {
  /** Marks `name` as awaited until `done` resolves. */
  waitFor(name: string, done: Promise<unknown>): void;
  /** What is still awaited (empty: ready). */
  pending(): string[];
  /** Shutting down: not ready any more, while requests are still served (main.ts). */
  readonly draining: boolean;
  drain(): void;
}

export function createReadiness(): Readiness {
  const waiting = new Set<string>();
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
    waitFor(name, done) {
      waiting.add(name);
      done.then(
        () => waiting.delete(name),
        () => {},
      );
    },
    pending: () => [...waiting],
  };
}

const byApp = new WeakMap<object, Readiness>();

/** The readiness of one app, keyed by its context object (the routes share it). */
export function readinessOf(ctx: object): Readiness {
  let r = byApp.get(ctx);
  if (!r) {
    r = createReadiness();
    byApp.set(ctx, r);
  }
  return r;
}
