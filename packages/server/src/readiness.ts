/**
 * What the server still waits for before it can answer everything correctly (GET /readyz says
 * 503 and names them until the list is empty). Today: the validity index's first load, which
 * starts when the app becomes ready, after start-up work such as the demo data. One per app,
 * among its services (services.ts); main.ts drains it on SIGTERM.
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

/**
 * `check` run at most once per `ttlMs` however often it is asked for: callers share the answer
 * in flight and then the last one until it is `ttlMs` old (issue 21: /readyz asked the database
 * on every call, and 16 clients asking it slowed every other answer). A failed check is not kept.
 */
export function cachedCheck<T>(check: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let last: { at: number; answer: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (last && now - last.at < ttlMs) return last.answer;
    const answer = check();
    const entry = { at: now, answer };
    last = entry;
    answer.catch(() => {
      if (last === entry) last = undefined;
    });
    return answer;
  };
}
