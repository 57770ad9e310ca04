import { randomBytes } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { outboxDir } from '../mail/transport.js';
import { audit } from './audit.js';

/**
 * Retention (docs/intake.md "Retention"): a request's personal data is erased
 * ROS_RETENTION_RECEIVED_DAYS after it was marked received, or ROS_RETENTION_UNRECEIVED_DAYS
 * after it was submitted when it never was; the row keeps its reference, dates, channel,
 * language and kind. Also purged: expired NIA sessions, spent bot-check tokens past their
 * expiry, its confirmation e-mail row, and outbox .eml files (mail bodies with the PDF) after
 * ROS_OUTBOX_KEEP_DAYS or when their request is erased.
 */

const DAY = 86_400_000;
/** Requests erased per statement. */
const BATCH = 200;

export interface DueRequest {
  reference: string;
  reason: 'received' | 'unreceived';
  /** When it is (or was) due. */
  due_at: string;
}

export interface PurgeResult {
  erased: DueRequest[];
  sessions: number;
  botTokens: number;
  /** Expired search match tokens (requests/matchToken.ts). */
  matchTokens: number;
  outboxFiles: number;
}

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY).toISOString();
const daysAfter = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY).toISOString();

/**
 * Requests not yet erased that are due by `at` (default now): received ones by their receipt,
 * never-received ones by their submission. Oldest due first, at most `limit`.
 */
export async function dueRequests(
  db: Db,
  config: Pick<Config, 'retentionReceivedDays' | 'retentionUnreceivedDays'>,
  at: Date,
  limit: number,
  opts: { unreceivedOnly?: boolean } = {},
): Promise<DueRequest[]> {
  const unreceived = (eb: ExpressionBuilder<Database, 'requests'>) =>
    eb.and([
      eb('status', '=', 'new'),
      eb('created_at', '<=', daysBefore(at, config.retentionUnreceivedDays)),
    ]);
  const rows = await db.kysely
    .selectFrom('requests')
    .select(['reference', 'status', 'created_at', 'received_at'])
    .where('erased_at', 'is', null)
    .where((eb) =>
      opts.unreceivedOnly
        ? unreceived(eb)
        : eb.or([
            eb.and([
              eb('status', '=', 'received'),
              eb('received_at', '<=', daysBefore(at, config.retentionReceivedDays)),
            ]),
            unreceived(eb),
          ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) =>
    r.status === 'received' && r.received_at
      ? {
          reference: r.reference,
          reason: 'received',
          due_at: daysAfter(r.received_at, config.retentionReceivedDays),
        }
      : {
          reference: r.reference,
          reason: 'unreceived',
          due_at: daysAfter(r.created_at, config.retentionUnreceivedDays),
        },
  );
}

/** Never-received requests whose personal data goes within `withinDays` (`ros-admin requests overdue`). */
export function overdueRequests(
  db: Db,
  config: Pick<Config, 'retentionReceivedDays' | 'retentionUnreceivedDays'>,
  withinDays: number,
  now: Date = new Date(),
  limit = 1000,
): Promise<DueRequest[]> {
  // Received ones are handled; only the never-received are overdue.
  return dueRequests(db, config, new Date(now.getTime() + withinDays * DAY), limit, { unreceivedOnly: true });
}

const outboxName = (reference: string) => `${reference.replace(/[^A-Za-z0-9_-]/g, '_')}.eml`;

/** Erases the personal data of these requests; those erased meanwhile are skipped. */
async function eraseRequests(db: Db, references: string[], now: Date): Promise<string[]> {
  if (references.length === 0) return [];
  return db.kysely.transaction().execute(async (trx) => {
    const ids = await trx
      .selectFrom('requests')
      .select(['id', 'reference'])
      .where('reference', 'in', references)
      .where('erased_at', 'is', null)
      .execute();
    if (ids.length === 0) return [];
    // The mail row would make the queue build a PDF of nothing; its body is gone with the request.
    await trx
      .deleteFrom('request_mails')
      .where(
        'request_id',
        'in',
        ids.map((r) => r.id),
      )
      .execute();
    await trx
      .updateTable('requests')
      .set({
        payload: '{}',
        person_key: null,
        idempotency_key: null,
        body_hash: '',
        nia_identifier: null,
        erased_at: now.toISOString(),
      })
      .where(
        'id',
        'in',
        ids.map((r) => r.id),
      )
      .where('erased_at', 'is', null)
      .execute();
    return ids.map((r) => r.reference);
  });
}

/** Outbox files to delete: older than the setting, or of an erased request. */
async function outboxFilesDue(config: Config, erased: Set<string>, now: Date): Promise<string[]> {
  const dir = outboxDir(config);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const keepAfter = now.getTime() - config.outboxKeepDays * DAY;
  const out: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.eml') && !name.endsWith('.tmp')) continue;
    const file = join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) continue;
    const erasedRef = name.endsWith('.eml') && erased.has(name);
    const staleTmp = name.endsWith('.tmp') && info.mtimeMs < now.getTime() - DAY;
    if (erasedRef || staleTmp || info.mtimeMs < keepAfter) out.push(file);
  }
  return out;
}

/**
 * One purge: erases what is due, deletes expired sessions, spent bot tokens, expired search
 * match tokens and old outbox files. With `dryRun` it only counts (and lists the requests it would erase).
 */
export async function purge(
  db: Db,
  config: Config,
  opts: { dryRun?: boolean; now?: Date; actor?: string } = {},
): Promise<PurgeResult> {
  const now = opts.now ?? new Date();
  const actor = opts.actor ?? 'system';
  const nowIso = now.toISOString();
  if (opts.dryRun) {
    const erased = await dueRequests(db, config, now, 100_000);
    const s = await db.kysely
      .selectFrom('sso_sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('expires_at', '<', nowIso)
      .executeTakeFirst();
    const b = await db.kysely
      .selectFrom('used_bot_tokens')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('expires_at', '<', nowIso)
      .executeTakeFirst();
    const m = await db.kysely
      .selectFrom('search_matches')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('expires_at', '<', nowIso)
      .executeTakeFirst();
    const files = await outboxFilesDue(config, new Set(erased.map((e) => outboxName(e.reference))), now);
    const result = {
      erased,
      sessions: Number(s?.n ?? 0),
      botTokens: Number(b?.n ?? 0),
      matchTokens: Number(m?.n ?? 0),
      outboxFiles: files.length,
    };
    await audit(db, { actor, action: 'purge', outcome: 'dry_run', detail: summary(result) }, now);
    return result;
  }
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
  const s = await db.kysely.deleteFrom('sso_sessions').where('expires_at', '<', nowIso).executeTakeFirst();
  const b = await db.kysely.deleteFrom('used_bot_tokens').where('expires_at', '<', nowIso).executeTakeFirst();
  const m = await db.kysely.deleteFrom('search_matches').where('expires_at', '<', nowIso).executeTakeFirst();
  const files = await outboxFilesDue(config, new Set(erased.map((e) => outboxName(e.reference))), now);
  let removed = 0;
  for (const f of files) {
    if (
      await unlink(f).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  const result = {
    erased,
    sessions: Number(s.numDeletedRows),
    botTokens: Number(b.numDeletedRows),
    matchTokens: Number(m.numDeletedRows),
    outboxFiles: removed,
  };
  await audit(db, { actor, action: 'purge', detail: summary(result) }, now);
  return result;
}

export const summary = (r: PurgeResult) =>
  `requests=${r.erased.length} sessions=${r.sessions} bot_tokens=${r.botTokens} match_tokens=${r.matchTokens} outbox_files=${r.outboxFiles}`;

/**
 * Takes the named lease until `until` when it is free (never taken, or run out): one
 * conditional upsert, so of several instances racing for it exactly one gets it.
 */
export async function takeLease(
  db: Db,
  name: string,
  holder: string,
  now: Date,
  until: Date,
): Promise<boolean> {
  const r = await db.kysely
    .insertInto('leases')
    .values({ name, holder, until: until.toISOString() })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), until: eb.ref('excluded.until') }))
        .where('leases.until', '<=', now.toISOString()),
    )
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * The server's purge: every ROS_PURGE_INTERVAL_MINUTES each instance tries to take the lease
 * 'purge' for one interval; the one that gets it purges. So the group purges once per
 * interval, however many instances run, and a stopped instance's turn passes to another.
 */
export class PurgeScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    const minutes = this.config.purgeIntervalMinutes;
    if (minutes === 0 || this.timer) return;
    this.timer = setInterval(() => this.kick(), minutes * 60_000);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (this.running) return;
    this.running = this.tick()
      .then(() => undefined)
      .catch((err: unknown) => {
        this.log.error({ purge: { error: err instanceof Error ? err.name : 'Error' } }, 'purge failed');
      })
      .finally(() => {
        this.running = null;
      });
  }

  /** Purges when this instance gets the lease: the result, or null when another has it. */
  async tick(now: Date = new Date()): Promise<PurgeResult | null> {
    const until = new Date(now.getTime() + this.config.purgeIntervalMinutes * 60_000);
    if (!(await takeLease(this.db, 'purge', this.holder, now, until))) return null;
    const result = await purge(this.db, this.config, { now });
    this.log.info({ purge: { ...result, erased: result.erased.length } }, 'purge done');
    return result;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.running) await this.running;
  }
}
