import type { SsoSessionTime } from '@ros/domain';
import type { Db } from '../db/database.js';
import { hashId, SESSION_ID } from './sessions.js';

/**
 * How long an active NIA session still lasts, and its extension (WCAG 2.2.1, docs/nia.md "The
 * session's end"). The browser warns `warn_before` seconds ahead and may ask for more time: each
 * extension gives the full `ROS_SESSION_MINUTES` again, but never beyond `ROS_SESSION_MAX_MINUTES`
 * after sign-in (`created_at` of the active row), so a session cannot be kept alive for ever.
 */

/** The warning comes 2 minutes before the end; in a session shorter than 4 minutes (tests), halfway. */
export const WARN_BEFORE_SECONDS = 120;

export interface SessionLimits {
  sessionMinutes: number;
  sessionMaxMinutes: number;
}

type Times = { created_at: string; expires_at: string };

async function activeTimes(db: Db, id: string | undefined, now: Date): Promise<Times | undefined> {
  if (!id || !SESSION_ID.test(id)) return undefined;
  return db.kysely
    .selectFrom('sso_sessions')
    .select(['created_at', 'expires_at'])
    .where('id', '=', hashId(id))
    .where('status', '=', 'active')
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
}

const capOf = (t: Times, limits: SessionLimits) =>
  new Date(t.created_at).getTime() + limits.sessionMaxMinutes * 60_000;

function timeOf(t: Times, limits: SessionLimits, now: Date): SsoSessionTime {
  const end = new Date(t.expires_at).getTime();
  return {
    expires_in: Math.max(0, Math.floor((end - now.getTime()) / 1000)),
    warn_before: Math.min(WARN_BEFORE_SECONDS, Math.floor((limits.sessionMinutes * 60) / 2)),
    // Another extension would move the end by at least a second.
    extendable: capOf(t, limits) - end >= 1000,
  };
}

/** The session's remaining time, or undefined when there is no active session. */
export async function sessionTime(
  db: Db,
  id: string | undefined,
  limits: SessionLimits,
  now: Date = new Date(),
): Promise<SsoSessionTime | undefined> {
  const t = await activeTimes(db, id, now);
  return t ? timeOf(t, limits, now) : undefined;
}

/** Moves the end to now + the session length, capped at the maximum lifetime; undefined without a session. */
export async function extendSession(
  db: Db,
  id: string | undefined,
  limits: SessionLimits,
  now: Date = new Date(),
): Promise<SsoSessionTime | undefined> {
  const t = await activeTimes(db, id, now);
  if (!t || !id) return undefined;
  const end = Math.min(now.getTime() + limits.sessionMinutes * 60_000, capOf(t, limits));
  const expires_at = new Date(Math.max(end, new Date(t.expires_at).getTime())).toISOString();
  await db.kysely
    .updateTable('sso_sessions')
    .set({ expires_at })
    .where('id', '=', hashId(id))
    .where('status', '=', 'active')
    .execute();
  return timeOf({ ...t, expires_at }, limits, now);
}
