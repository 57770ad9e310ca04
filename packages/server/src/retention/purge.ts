import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { audit } from '../intake/audit.js';
import { type DueRequest, dueRequests } from './due.js';
import { eraseAgain, erasedStillHolding, eraseRequests, markErased, overwriteFreedSpace } from './erase.js';
import { deleteFiles, outboxFilesDue } from './outboxFiles.js';

/**
 * One retention purge (docs/intake.md "Retention"): erases the personal data of the requests
 * that are due (retention/due.ts, retention/erase.ts) and again what erased requests still hold
 * (a note stored after the erasure by the code before issue 36), deletes the rows that expire (NIA
 * sessions, spent bot-check tokens, search match tokens) and old outbox files
 * (retention/outboxFiles.ts). The server runs it on a timer (retention/scheduler.ts), operators
 * with `ros-admin purge`.
 */

/** Requests erased per statement. */
const BATCH = 200;

/** The tables whose rows are deleted once past `expires_at`, by the count each gives in the result. */
const EXPIRING = {
  sessions: 'sso_sessions',
  botTokens: 'used_bot_tokens',
  /** Expired search match tokens (requests/matchToken.ts). */
  matchTokens: 'search_matches',
} as const;
type Expiring = keyof typeof EXPIRING;

export type PurgeResult = {
  erased: DueRequest[];
  /** Erased before, still holding personal data, erased again (their references). */
  erasedAgain: string[];
  outboxFiles: number;
} & Record<Expiring, number>;

const EXPIRING_KEYS = Object.keys(EXPIRING) as Expiring[];

/** The rows of each expiring table past expiry: counted (`dryRun`) or deleted. */
async function expired(db: Db, nowIso: string, dryRun: boolean): Promise<Record<Expiring, number>> {
  const out = {} as Record<Expiring, number>;
  for (const key of EXPIRING_KEYS) {
    const table = EXPIRING[key];
    if (dryRun) {
      const r = await db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('expires_at', '<', nowIso)
        .executeTakeFirst();
      out[key] = Number(r?.n ?? 0);
    } else {
      const r = await db.kysely.deleteFrom(table).where('expires_at', '<', nowIso).executeTakeFirst();
      out[key] = Number(r.numDeletedRows);
    }
  }
  return out;
}

/** Erases what is due, in batches, auditing each request; the requests erased. */
async function eraseDue(db: Db, config: Config, now: Date, actor: string): Promise<DueRequest[]> {
  const erased: DueRequest[] = [];
  for (;;) {
    const due = await dueRequests(db, config, now, BATCH);
    if (due.length === 0) break;
    const done = new Set(
      await eraseRequests(
        db,
        due.map((d) => d.reference),
        now,
      ),
    );
    for (const d of due) {
      if (!done.has(d.reference)) continue;
      erased.push(d);
      await audit(db, { actor, action: 'requests.erase', target: d.reference, detail: d.reason }, now);
    }
    if (done.size === 0) break;
  }
  return erased;
}

/**
 * Erases again, in batches by id, what erased requests still hold, auditing each as
 * `requests.erase` with detail `again`; their references.
 */
async function eraseLeftovers(db: Db, now: Date, actor: string): Promise<string[]> {
  const done: string[] = [];
  let after = '';
  for (;;) {
    const batch = await erasedStillHolding(db, BATCH, after);
    const last = batch.at(-1);
    if (!last) break;
    after = last.id;
    for (const reference of await eraseAgain(
      db,
      batch.map((r) => r.id),
    )) {
      done.push(reference);
      await audit(db, { actor, action: 'requests.erase', target: reference, detail: 'again' }, now);
    }
    if (batch.length < BATCH) break;
  }
  return done;
}

/**
 * One purge: erases what is due and what erased requests still hold, deletes expired sessions, spent bot tokens, expired search
 * match tokens and old outbox files. With `dryRun` it only counts (and lists the requests it would erase).
 */
export async function purge(
  db: Db,
  config: Config,
  opts: { dryRun?: boolean; now?: Date; actor?: string } = {},
): Promise<PurgeResult> {
  const now = opts.now ?? new Date();
  const actor = opts.actor ?? 'system';
  const dryRun = opts.dryRun === true;
  const erased = dryRun
    ? await dueRequests(db, config, now, 100_000)
    : await eraseDue(db, config, now, actor);
  const erasedAgain = dryRun
    ? (await erasedStillHolding(db, 100_000)).map((r) => r.reference)
    : await eraseLeftovers(db, now, actor);
  const counts = await expired(db, now.toISOString(), dryRun);
  const files = await outboxFilesDue(config, [...erased.map((e) => e.reference), ...erasedAgain], now);
  const result: PurgeResult = {
    erased,
    erasedAgain,
    ...counts,
    outboxFiles: dryRun ? files.length : await deleteFiles(files),
  };
  if (dryRun) {
    await audit(db, { actor, action: 'purge', outcome: 'dry_run', detail: summary(result) }, now);
    return result;
  }
  await audit(db, { actor, action: 'purge', detail: summary(result) }, now);
  if (erased.length + erasedAgain.length + result.sessions > 0)
    await markErased(db.kysely, db.dialect, 'requests', now);
  await overwriteFreedSpace(db);
  return result;
}

/** The purge's audit detail; `erased_again=N` only when some were (rare: rows of the code before issue 36). */
export const summary = (r: PurgeResult) =>
  `requests=${r.erased.length} sessions=${r.sessions} bot_tokens=${r.botTokens} match_tokens=${r.matchTokens} outbox_files=${r.outboxFiles}${
    r.erasedAgain.length > 0 ? ` erased_again=${r.erasedAgain.length}` : ''
  }`;
