import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

/**
 * Match tokens (issues 11 and 21, docs/register.md): a search that finds a register person
 * answers, besides the person, a random token (256 bits, base64url) that proves this search
 * matched this person. The browser sends it back with the birth-number retry, validate and
 * submit; the server links a request to a register person only through such a token (or a NIA
 * sign-in), never through a value the client sends. A NIA session's token (sso-session
 * `szr.match`) is spent by the request sent through NIA too: a retry without a key whose answer
 * was lost finds that request only through the token, a secret of that browser. Only the token's sha256 is stored, in a
 * table every instance shares, with an expiry. A token links one request: the transaction
 * that stores the request spends it (`request_id`); after that it proves its person only to a
 * retry of that request (the same Idempotency-Key); and a retry without a key is answered with
 * that request only through it (routes/submit.ts, `storedTwin`), never through equal values. Expired rows are deleted by the retention
 * purge (retention/purge.ts).
 */

/** How long a search's match stays good: a long form fill, not a day. */
export const MATCH_TOKEN_HOURS = 4;

export const matchTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
/** A token we could have issued: 43 base64url characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Looked up for anything that cannot be a token, so that a bad token costs what a good one does. */
const NO_TOKEN_HASH = matchTokenHash('');

/** A new match token for the person a search found. */
export async function issueMatchToken(db: Db, personId: number, now: Date = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.kysely
    .insertInto('search_matches')
    .values({
      token_hash: matchTokenHash(token),
      person_id: personId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + MATCH_TOKEN_HOURS * 3_600_000).toISOString(),
    })
    .execute();
  return token;
}

/** A token that has not expired: its person, its hash, and whether (and by which request) it was spent. */
export interface MatchRow {
  personId: number;
  hash: string;
  /** null while unspent; else the request that spent it and its Idempotency-Key (null: sent without one). */
  spentBy: { requestId: string; idempotencyKey: string | null } | null;
}

/**
 * The live token row for what the client sent; null for an unknown, malformed or expired token.
 * Always exactly one query (see NO_TOKEN_HASH).
 */
export async function lookUpMatch(db: Db, token: unknown, now: Date = new Date()): Promise<MatchRow | null> {
  const hash = typeof token === 'string' && TOKEN.test(token) ? matchTokenHash(token) : NO_TOKEN_HASH;
  const row = await db.kysely
    .selectFrom('search_matches as m')
    .leftJoin('requests as r', 'r.id', 'm.request_id')
    .select(['m.person_id', 'm.request_id', 'r.idempotency_key'])
    .where('m.token_hash', '=', hash)
    .where('m.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  return {
    personId: Number(row.person_id),
    hash,
    spentBy:
      row.request_id === null
        ? null
        : { requestId: row.request_id, idempotencyKey: row.idempotency_key ?? null },
  };
}

/**
 * The register person a token proves: an unspent live token's person; a spent one's only for a
 * retry of the request that spent it (`idempotencyKey` equal to that request's). Else null.
 */
export function provedBy(match: MatchRow | null, idempotencyKey?: string | null): number | null {
  if (!match) return null;
  if (match.spentBy === null) return match.personId;
  const key = match.spentBy.idempotencyKey;
  return key !== null && idempotencyKey !== undefined && idempotencyKey === key ? match.personId : null;
}

/**
 * Spends the token for the request being stored, in its transaction. False when another request
 * spent it first (the caller stores the request without the link instead).
 */
export async function spendMatch(
  trx: Transaction<Database>,
  hash: string,
  requestId: string,
): Promise<boolean> {
  const r = await trx
    .updateTable('search_matches')
    .set({ request_id: requestId })
    .where('token_hash', '=', hash)
    .where('request_id', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
