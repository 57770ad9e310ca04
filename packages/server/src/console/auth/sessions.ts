import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { hashId, newSessionId, SESSION_ID } from '../../nia/sessions.js';
import { CONSOLE_ABSOLUTE_HOURS, CONSOLE_IDLE_MINUTES } from '../config.js';
import { isStaffRole, type Staff, type StaffRole } from '../staff.js';
import type { ConsoleFlow } from './client.js';
import { PENDING_MINUTES, STAFF_COOKIE } from './paths.js';

/**
 * The staff's sessions in table console_sessions (migration 0014, docs/console-signin.md). The
 * browser holds 256 random bits; a row is keyed by their sha256, so a copy of the table signs
 * nobody in. Two kinds of row:
 * - a sign-in under way: role `pending`, no subject or name, lasting PENDING_MINUTES. Its state,
 *   nonce and PKCE verifier are not stored: they are HMACs of the pending cookie's value, which
 *   only the browser holds (flowOf). The callback deletes the row before it exchanges the code,
 *   so a callback is taken once (a replay finds nothing).
 * - a session: the subject, display name, role and CSRF token, with `last_seen_at` (moved at
 *   most once a minute) and `expires_at` (idle limit, never beyond the absolute limit).
 */

export const PENDING_ROLE = 'pending';
const IDLE_MS = CONSOLE_IDLE_MINUTES * 60_000;
const ABSOLUTE_MS = CONSOLE_ABSOLUTE_HOURS * 3_600_000;
/** last_seen_at and expires_at move at most this often (one write a minute per session, not per request). */
const SLIDE_MS = 60_000;

/** The state, nonce and PKCE verifier of a sign-in, made from its cookie's value. */
export function flowOf(pending: string): ConsoleFlow {
  const mac = (label: string) =>
    createHmac('sha256', pending).update(`ros-console-signin\0${label}`).digest('base64url');
  return { state: mac('state'), nonce: mac('nonce'), codeVerifier: mac('pkce') };
}

/** A cookie's value from the request (without relying on @fastify/cookie being registered in this scope). */
export function cookieValue(req: FastifyRequest, name: string): string | undefined {
  const parsed = (req as { cookies?: Record<string, string | undefined> }).cookies?.[name];
  if (parsed !== undefined) return parsed;
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Deletes ended sign-ins and sessions (run at every sign-in). */
export async function purgeExpiredStaffSessions(db: Db, now: Date = new Date()): Promise<void> {
  await db.kysely.deleteFrom('console_sessions').where('expires_at', '<=', now.toISOString()).execute();
  // A session's absolute end, however its expires_at was written.
  const oldest = new Date(now.getTime() - ABSOLUTE_MS).toISOString();
  await db.kysely.deleteFrom('console_sessions').where('created_at', '<=', oldest).execute();
}

/** A new pending cookie's value (256 random bits, base64url). */
export const newCookieValue = (): string => newSessionId();

/** Records the sign-in under way of cookie value `value` (newCookieValue). */
export async function createPending(db: Db, value: string, now: Date = new Date()): Promise<void> {
  await db.kysely
    .insertInto('console_sessions')
    .values({
      id: hashId(value),
      subject: '',
      name: '',
      role: PENDING_ROLE,
      csrf: '',
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + PENDING_MINUTES * 60_000).toISOString(),
    })
    .execute();
}

/** Whether `value` names a sign-in still under way. */
export async function pendingExists(
  db: Db,
  value: string | undefined,
  now: Date = new Date(),
): Promise<boolean> {
  if (!value || !SESSION_ID.test(value)) return false;
  const row = await db.kysely
    .selectFrom('console_sessions')
    .select('id')
    .where('id', '=', hashId(value))
    .where('role', '=', PENDING_ROLE)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return !!row;
}

/** Takes the sign-in `value` for one callback: true for exactly one of concurrent callers. */
export async function takePending(db: Db, value: string, now: Date = new Date()): Promise<boolean> {
  if (!SESSION_ID.test(value)) return false;
  const result = await db.kysely
    .deleteFrom('console_sessions')
    .where('id', '=', hashId(value))
    .where('role', '=', PENDING_ROLE)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Starts a staff session: the cookie value (the row holds its sha256). */
export async function createStaffSession(
  db: Db,
  who: { subject: string; name: string; role: StaffRole },
  now: Date = new Date(),
): Promise<string> {
  const value = newSessionId();
  await db.kysely
    .insertInto('console_sessions')
    .values({
      id: hashId(value),
      subject: who.subject,
      name: who.name,
      role: who.role,
      csrf: randomBytes(32).toString('base64url'),
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + IDLE_MS).toISOString(),
    })
    .execute();
  return value;
}

/** Ends the session of cookie value `value` (sign-out, or a new sign-in in the same browser). */
export async function endStaffSession(db: Db, value: string | undefined): Promise<void> {
  if (!value || !SESSION_ID.test(value)) return;
  await db.kysely.deleteFrom('console_sessions').where('id', '=', hashId(value)).execute();
}

/**
 * The signed-in staff member of this request, or null: no cookie, an unknown one, a sign-in
 * still under way, or a session past its idle (CONSOLE_IDLE_MINUTES) or absolute
 * (CONSOLE_ABSOLUTE_HOURS) end, which is then deleted. A session in use slides its end, at
 * most once a minute.
 */
export async function loadStaff(
  db: Db,
  request: FastifyRequest,
  now: Date = new Date(),
): Promise<Staff | null> {
  const value = cookieValue(request, STAFF_COOKIE);
  if (!value || !SESSION_ID.test(value)) return null;
  const id = hashId(value);
  const row = await db.kysely
    .selectFrom('console_sessions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || !isStaffRole(row.role)) return null;
  const t = now.getTime();
  const created = Date.parse(row.created_at);
  const seen = Date.parse(row.last_seen_at);
  const end = Math.min(Date.parse(row.expires_at), seen + IDLE_MS, created + ABSOLUTE_MS);
  if (!(end > t)) {
    await db.kysely.deleteFrom('console_sessions').where('id', '=', id).execute();
    return null;
  }
  if (t - seen >= SLIDE_MS) {
    await db.kysely
      .updateTable('console_sessions')
      .set({
        last_seen_at: now.toISOString(),
        expires_at: new Date(Math.min(t + IDLE_MS, created + ABSOLUTE_MS)).toISOString(),
      })
      .where('id', '=', id)
      .execute();
  }
  return {
    subject: row.subject,
    name: row.name,
    role: row.role,
    actor: `staff:${row.subject}`,
    csrf: row.csrf,
    sessionId: id,
  };
}
