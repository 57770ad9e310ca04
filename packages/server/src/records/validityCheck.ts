import { parseValidityId } from '@ros/domain';
import type { Db } from '../db/database.js';
import { type ApiError, notFound } from '../errors.js';
import { createSlidingWindowLimiter } from '../ratelimit/limiter.js';
import { registerToday } from './records.js';
import { createValidityIndex } from './validityIndex.js';

/**
 * The public validity check (spec section 7, `GET /api/ros/{id}/validity`) as one function from
 * the token and the client address to the answer; routes/validity.ts puts it on HTTP.
 *
 * `{id}` is the whole token of the check link, `{recordId}x{code}`. The record is answered only when
 * the code equals day + month + year of its `platnost_do`. A malformed id, an unknown id and a wrong
 * code all get the same 404 after the same work: one lookup in the in-memory index (a malformed id
 * looks up id 0, which never exists) and one comparison of two small integers, which takes constant
 * time. So the answers and their timing tell nothing about which certificate numbers exist.
 * Found and not found both count towards the per-address limit, so enumeration is throttled too.
 */
export interface ValidityCheck {
  /** The answer: 200 with the record's JSON, or the ApiError to answer (404, or 429 over the limit). */
  answer(token: string, clientAddress: string): { json: string } | { error: ApiError };
  /** Whether the certificates have been read (before that, answer() must not be called). */
  readonly loaded: boolean;
  /** When the certificates were last known current (ms; metrics: the index's age). */
  readonly currentAt: number | undefined;
  /** Reads the certificates (once; see ValidityIndex.start). */
  start(): Promise<void>;
  /** Stops looking for changed certificates. */
  close(): void;
}

export interface ValidityCheckOptions {
  /** How often the index looks for changed certificates (ROS_VALIDITY_REFRESH_MS). */
  refreshMs: number;
  /** Checks per client address and minute (ROS_RATE_LIMIT_VALIDITY). */
  perMinute: number | (() => number);
  /** Told when a look for changes fails (no personal data). */
  onError?: (err: { type: string; code?: string }) => void;
}

/** Id that no certificate has (ids start at 1): the lookup a malformed id still makes. */
const NO_RECORD = 0;

/** The one 404 of the check: built once, the same object for every miss. */
const NOT_FOUND = notFound();

/** Today's date in Prague, recomputed at most once a second instead of on every request. */
function todayCache(): () => string {
  let value = registerToday();
  let until = Date.now() + 1000;
  return () => {
    const now = Date.now();
    if (now >= until) {
      value = registerToday(new Date(now));
      until = now + 1000;
    }
    return value;
  };
}

/** The check, its certificates not read yet: call start() (routes/validity.ts does, when the app is ready). */
export function createValidityCheck(db: Db, opts: ValidityCheckOptions): ValidityCheck {
  const index = createValidityIndex(db, { refreshMs: opts.refreshMs, onError: opts.onError });
  const today = todayCache();
  // A lean per-address counter (ratelimit/limiter.ts): this check must stay close to a bare route in cost.
  const limiter = createSlidingWindowLimiter(opts.perMinute);
  return {
    answer(token, clientAddress) {
      try {
        limiter.hit(clientAddress);
      } catch (err) {
        return { error: err as ApiError };
      }
      const parsed = parseValidityId(token);
      let id = NO_RECORD;
      let given = -1;
      if (parsed) {
        const n = Number(parsed.recordId);
        if (Number.isSafeInteger(n)) id = n;
        // Codes are sums like 2069; a longer one cannot match, and Number() of it would round.
        if (parsed.code.length <= 6) given = Number(parsed.code);
      }
      const json = index.answer(id, given, today());
      if (json === undefined || id === NO_RECORD) return { error: NOT_FOUND };
      return { json };
    },
    get loaded() {
      return index.loaded;
    },
    get currentAt() {
      return index.currentAt;
    },
    start: () => index.start(),
    close: () => index.close(),
  };
}
