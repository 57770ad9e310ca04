import { shortValidityName, validityCode } from '@ros/domain';
import type { Db } from '../db/database.js';
import { toValidityAnswer, type ValidityRow } from './records.js';
import { loadValidityRows, recordsVersion } from './repository.js';

/**
 * The validity check's answers, held in memory (docs/decisions/0004-validity-in-memory.md).
 *
 * Each certificate is kept as the little the check needs: its code (day + month + year of
 * `platnost_do`), the dates, the state and the first three letters of each name (the full names
 * never enter this index). A check is one Map lookup and one integer comparison, so:
 * - a known id with a wrong code, an unknown id and a malformed id (looked up as id 0) take the
 *   same path and the same time: no database round trip whose length depends on the id;
 * - the endpoint costs about what a bare route costs (bench/validity.mjs).
 *
 * Freshness: every change of `records` moves the `records_version` counter on (a trigger, so also
 * changes made by ros-admin in another process or by plain SQL). The index looks at that counter
 * every `refreshMs` (one tiny query) and reloads all rows when it moved, so a revocation reaches the
 * check within about that time. A failed look keeps the answers it has and tries again.
 */
export interface ValidityIndex {
  /**
   * The JSON answer for a certificate id and the code given with it, as of `today` ('YYYY-MM-DD'),
   * or undefined when there is no such certificate or the code is wrong.
   */
  answer(id: number, code: number, today: string): string | undefined;
  /** Looks at the version now and reloads when it moved; true when it reloaded. */
  refresh(): Promise<boolean>;
  /** Certificates held. */
  readonly size: number;
  /** Whether the first load has finished: before it, no answer may say "unknown". */
  readonly loaded: boolean;
  /** When the index last knew it was current (a load, or a look that found no change); ms. */
  readonly currentAt: number | undefined;
  /**
   * Loads all rows for the first time (retrying every refreshMs while that fails), then looks
   * for changes every refreshMs. Resolves once loaded. Calling it again returns the same promise.
   */
  start(): Promise<void>;
  /** Stops looking for changes. */
  close(): void;
}

interface Entry {
  code: number;
  row: ValidityRow;
  /** The day `json` was made for: whether a certificate is in force depends on the date. */
  day: string;
  json: string;
}

export interface ValidityIndexOptions {
  refreshMs: number;
  /** Told when a look for changes fails (no personal data: the error's class and code only). */
  onError?: (err: { type: string; code?: string }) => void;
}

/** Loads the index and starts looking for changes (an index that answers at once). */
export async function openValidityIndex(db: Db, opts: ValidityIndexOptions): Promise<ValidityIndex> {
  const index = createValidityIndex(db, opts);
  await index.start();
  return index;
}

/**
 * The index, not loaded yet: the server starts it once start-up work (migrations, demo data) is
 * done, when the app becomes ready (routes/validity.ts), so the first load sees that work.
 */
export function createValidityIndex(db: Db, opts: ValidityIndexOptions): ValidityIndex {
  let entries = new Map<number, Entry>();
  let version = '';
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let loaded = false;
  let started: Promise<void> | undefined;
  let currentAt: number | undefined;

  const load = async () => {
    const fresh = await loadValidityRows(db);
    const next = new Map<number, Entry>();
    for (const r of fresh.rows) {
      next.set(r.id, {
        code: validityCode(r.platnost_do) ?? -1,
        row: {
          stav: r.stav,
          platnost_do: r.platnost_do,
          a1a3_valid_until: r.a1a3_valid_until,
          a2_valid_until: r.a2_valid_until,
          first_name: shortValidityName(r.first_name),
          last_name: shortValidityName(r.last_name),
          revoked_at: r.revoked_at,
        },
        day: '',
        json: '',
      });
    }
    entries = next;
    version = fresh.version;
    currentAt = Date.now();
  };

  const report = (err: unknown) => {
    const e = err as { name?: string; code?: unknown };
    opts.onError?.({ type: e?.name ?? 'Error', code: typeof e?.code === 'string' ? e.code : undefined });
  };

  const refresh = async () => {
    if ((await recordsVersion(db)) === version) {
      currentAt = Date.now();
      return false;
    }
    await load();
    return true;
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(async () => {
      try {
        await refresh();
      } catch (err) {
        report(err);
      }
      schedule();
    }, opts.refreshMs);
    // Never keeps the process alive on its own.
    timer.unref();
  };

  const firstLoad = async (): Promise<void> => {
    for (;;) {
      try {
        await load();
        loaded = true;
        schedule();
        return;
      } catch (err) {
        if (closed) throw err;
        report(err);
        await new Promise((r) => setTimeout(r, opts.refreshMs).unref());
      }
    }
  };

  return {
    answer(id, code, today) {
      const e = entries.get(id);
      if (e === undefined || e.code !== code) return undefined;
      if (e.day !== today) {
        e.json = JSON.stringify(toValidityAnswer(e.row, today));
        e.day = today;
      }
      return e.json;
    },
    refresh,
    get size() {
      return entries.size;
    },
    get loaded() {
      return loaded;
    },
    get currentAt() {
      return currentAt;
    },
    start() {
      started ??= firstLoad();
      return started;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
