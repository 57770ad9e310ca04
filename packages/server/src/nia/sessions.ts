import { createHash, randomBytes } from 'node:crypto';
import { SSO_FROM_PAGES } from '@ros/domain';
import type { Db } from '../db/database.js';

/**
 * Server-side NIA sessions (table sso_sessions, docs/nia.md). The browser holds only a random
 * 256-bit id in an HttpOnly cookie; the table keys rows by its sha256, so a copy of the table
 * cannot be used to take over a session. A row is first `pending` (the sign-in under way:
 * state, nonce, PKCE verifier) and is replaced by an `active` row with a new id after a
 * successful callback, so an id seen before sign-in is worthless afterwards.
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

export async function findPending(
  db: Db,
  id: string | undefined,
  now: Date = new Date(),
): Promise<{ from: FromPage; flow: PendingSignIn } | undefined> {
  const row = await findRow(db, id, now);
  if (row?.status !== 'pending' || !isFrom(row.from_page)) return undefined;
  return { from: row.from_page, flow: JSON.parse(row.data) as PendingSignIn };
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

/** Ends the pending sign-in `oldId` (if any) and starts the signed-in session; returns its new id. */
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
      await trx.deleteFrom('sso_sessions').where('id', '=', hashId(oldId)).execute();
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
