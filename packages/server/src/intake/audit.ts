import { userInfo } from 'node:os';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';

/**
 * The audit trail (table audit_log): every intake call made with a valid token and every
 * `ros-admin` command that reads or changes personal data writes one row. A row says who
 * (`token:NAME`, `operator:USER`, `system`), what (`requests.read`, `persons.put`, …), to which
 * reference or register entry, when and how it ended; never personal data (no names, no values).
 */
export interface AuditEntry {
  actor: string;
  action: string;
  target?: string | null;
  outcome?: 'ok' | 'denied' | 'not_found' | 'invalid' | 'gone' | 'error' | 'dry_run';
  /** Short, fixed words or counts; never a value of the form or the register. */
  detail?: string | null;
}

export type AuditRow = Selectable<AuditLogTable>;

export async function audit(db: Db, entry: AuditEntry, now: Date = new Date()): Promise<void> {
  await db.kysely
    .insertInto('audit_log')
    .values({
      at: now.toISOString(),
      actor: entry.actor.slice(0, 120),
      action: entry.action.slice(0, 40),
      target: entry.target?.slice(0, 60) ?? null,
      outcome: entry.outcome ?? 'ok',
      detail: entry.detail?.slice(0, 200) ?? null,
    })
    .execute();
}

/** The operator running `ros-admin`: the OS user (the one behind sudo when run through it). */
export function operatorActor(): string {
  let name = process.env.SUDO_USER;
  if (!name) {
    try {
      name = userInfo().username;
    } catch {
      name = process.env.USER ?? 'unknown';
    }
  }
  return `operator:${name}`;
}

/** The newest rows first, optionally since a time, of one target or one actor. */
export async function listAudit(
  db: Db,
  q: { since?: string; target?: string; actor?: string; limit: number },
): Promise<AuditRow[]> {
  let query = db.kysely.selectFrom('audit_log').selectAll();
  if (q.since) query = query.where('at', '>=', q.since);
  if (q.target) query = query.where('target', '=', q.target);
  if (q.actor) query = query.where('actor', '=', q.actor);
  const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
