import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SSO_FROM_PAGES } from '@ros/domain';
import type { Db } from '../db/database.js';

/**
 * Server-side NIA sessions (table sso_sessions, docs/nia.md). The browser holds only a random
 * 256-bit id in an HttpOnly cookie; the table keys rows by its sha256, so a copy of the table
 * cannot be used to take over a session. A row is first `pending` (the sign-in under way:
 * state, nonce, PKCE verifier) and is replaced by an `active` row with a new id after a
 * successful callback, so an id seen before sign-in is worthless afterwards.
 *
 * The callback claims its pending row (`pending` -> `finishing`) before the token exchange, so
 * of the same callback arriving several times at once (a double click, a browser's retry) only
 * one exchanges the code. The winner leaves the row `finished` for FINISHED_SECONDS holding the
 * new session id, sealed with a key only the old cookie gives; the duplicates wait for it and
 * hand the browser the same session (issue 33 item 8).
 */

export const SESSION_COOKIE = 'ros_session';

/** Where the browser came from, and so where it goes back to (spec section 7, sso-redirect). */
export const FROM_PAGES = SSO_FROM_PAGES;
export type FromPage = (typeof FROM_PAGES)[number];

export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** What NIA told us, reduced to what the form needs. */
export interface NiaIdentity {
  /** false when NIA did not release the given name, the family name or the birth date. */
  complete: boolean;
  first_name: string | null;
  last_name: string | null;
  /** 'YYYY-MM-DD' */
  birth_date: string | null;
  /** NIA's PersonIdentifier (a pseudonym for this service): the key into persons.nia_identifier. */
  person_identifier: string;
}

/** How long a started sign-in may take before its state is forgotten. */
export const PENDING_MINUTES = 15;

/** How long a finished sign-in keeps its new session id for duplicates of its callback. */
export const FINISHED_SECONDS = 60;

export const newSessionId = (): string => randomBytes(32).toString('base64url');
export const hashId = (id: string): string => createHash('sha256').update(id).digest('hex');
/** A cookie value we could have issued: 43 base64url characters. */
export const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

async function purgeExpired(db: Db, now: Date): Promise<void> {
  await db.kysely.deleteFrom('sso_sessions').where('expires_at', '<', now.toISOString()).execute();
}

export async function createPending(
  db: Db,
  from: FromPage,
  flow: PendingSignIn,
  now: Date = new Date(),
): Promise<string> {
  await purgeExpired(db, now);
  const id = newSessionId();
  await db.kysely
    .insertInto('sso_sessions')
    .values({
      id: hashId(id),
      status: 'pending',
      from_page: from,
      data: JSON.stringify(flow),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + PENDING_MINUTES * 60_000).toISOString(),
    })
    .execute();
  return id;
}

type Row = { status: string; from_page: string; data: string };

async function findRow(db: Db, id: string | undefined, now: Date): Promise<Row | undefined> {
  if (!id || !SESSION_ID.test(id)) return undefined;
  return db.kysely
    .selectFrom('sso_sessions')
    .select(['status', 'from_page', 'data'])
    .where('id', '=', hashId(id))
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
}

const isFrom = (s: string): s is FromPage => (FROM_PAGES as readonly string[]).includes(s);

/** A sign-in under way (`pending`, or `finishing`: its callback is exchanging the code) or just `finished`. */
export type SignInRow =
  | { status: 'pending' | 'finishing'; from: FromPage; state: string; flow: PendingSignIn }
  | { status: 'finished'; from: FromPage; state: string };

export async function findSignIn(
  db: Db,
  id: string | undefined,
  now: Date = new Date(),
): Promise<SignInRow | undefined> {
  const row = await findRow(db, id, now);
  if (!row || !isFrom(row.from_page)) return undefined;
  if (row.status === 'pending' || row.status === 'finishing') {
    const flow = JSON.parse(row.data) as PendingSignIn;
    return { status: row.status, from: row.from_page, state: flow.state, flow };
  }
  if (row.status === 'finished') {
    const { state } = JSON.parse(row.data) as { state: string };
    return { status: 'finished', from: row.from_page, state };
  }
  return undefined;
}

/** Takes the pending sign-in `id` for one callback: true for exactly one of concurrent callers. */
export async function claimPending(db: Db, id: string, now: Date = new Date()): Promise<boolean> {
  if (!SESSION_ID.test(id)) return false;
  const result = await db.kysely
    .updateTable('sso_sessions')
    .set({ status: 'finishing' })
    .where('id', '=', hashId(id))
    .where('status', '=', 'pending')
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// The new session id in a finished row: AES-256-GCM under a key derived from the old cookie
// value (the row is keyed by its sha256 under another label), so the table alone does not give it.
const sealKey = (oldId: string) => createHash('sha256').update(`ros-sso-finished\0${oldId}`).digest();

function seal(newId: string, oldId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(oldId), iv);
  const body = Buffer.concat([cipher.update(newId, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(sealed: string, oldId: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(oldId), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * A duplicate callback of the sign-in `id`: waits until the callback that claimed it has finished
 * (the session id it made, or undefined when it failed or `deadline` passed). Polls the table, so
 * a duplicate that reached another instance waits the same way.
 */
export async function awaitFinished(
  db: Db,
  id: string,
  deadline: number,
  pollMs = 50,
): Promise<string | undefined> {
  for (;;) {
    const row = await findRow(db, id, new Date());
    if (row?.status === 'finished') {
      const { sealed } = JSON.parse(row.data) as { sealed: string };
      const newId = unseal(sealed, id);
      // The session it names must still be active (not signed out meanwhile).
      return newId && (await findRow(db, newId, new Date()))?.status === 'active' ? newId : undefined;
    }
    if (row?.status !== 'finishing' || Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export async function findActive(
  db: Db,
  id: string | undefined,
  now: Date = new Date(),
): Promise<NiaIdentity | undefined> {
  return (await findActiveSession(db, id, now))?.identity;
}

/** The active session with where it started and the ID token kept as the hint for signing out at NIA. */
export async function findActiveSession(
  db: Db,
  id: string | undefined,
  now: Date = new Date(),
): Promise<{ from: FromPage; identity: NiaIdentity; idTokenHint: string | undefined } | undefined> {
  const row = await findRow(db, id, now);
  if (row?.status !== 'active' || !isFrom(row.from_page)) return undefined;
  const { id_token_hint, ...identity } = JSON.parse(row.data) as NiaIdentity & { id_token_hint?: string };
  return { from: row.from_page, identity, idTokenHint: id_token_hint };
}

/**
 * Starts the signed-in session and returns its new id. The sign-in `oldId` (if any) is kept
 * `finished` for FINISHED_SECONDS with the new id sealed, for duplicates of its callback.
 */
export async function activate(
  db: Db,
  oldId: string | undefined,
  from: FromPage,
  identity: NiaIdentity,
  minutes: number,
  now: Date = new Date(),
  idTokenHint?: string,
): Promise<string> {
  const id = newSessionId();
  await db.kysely.transaction().execute(async (trx) => {
    if (oldId && SESSION_ID.test(oldId)) {
      const row = await trx
        .selectFrom('sso_sessions')
        .select(['status', 'data'])
        .where('id', '=', hashId(oldId))
        .executeTakeFirst();
      const state =
        row && row.status !== 'active' ? (JSON.parse(row.data) as { state?: string }).state : undefined;
      if (state === undefined) await trx.deleteFrom('sso_sessions').where('id', '=', hashId(oldId)).execute();
      else
        await trx
          .updateTable('sso_sessions')
          .set({
            status: 'finished',
            data: JSON.stringify({ state, sealed: seal(id, oldId) }),
            expires_at: new Date(now.getTime() + FINISHED_SECONDS * 1000).toISOString(),
          })
          .where('id', '=', hashId(oldId))
          .execute();
    }
    await trx
      .insertInto('sso_sessions')
      .values({
        id: hashId(id),
        status: 'active',
        from_page: from,
        // The ID token only as the hint for signing out at NIA (docs/nia.md "Signing out at NIA").
        data: JSON.stringify(idTokenHint ? { ...identity, id_token_hint: idTokenHint } : identity),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + minutes * 60_000).toISOString(),
      })
      .execute();
  });
  return id;
}

export async function endSession(db: Db, id: string | undefined): Promise<void> {
  if (!id || !SESSION_ID.test(id)) return;
  await db.kysely.deleteFrom('sso_sessions').where('id', '=', hashId(id)).execute();
}

/** Cookie options: HttpOnly, SameSite=Lax (the callback is a top-level GET from NIA), Secure on https. */
export function cookieOptions(publicUrl: string, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: publicUrl.startsWith('https:'),
    maxAge: maxAgeSeconds,
  };
}
