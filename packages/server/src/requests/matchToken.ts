import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

/**
 * Match tokens (issue 11, docs/register.md): a search that finds a register person answers,
 * besides the person, a random token (256 bits, base64url) that proves this search matched this
 * person. The browser sends it back with validate and submit; the server links a request to a
 * register person only through such a token (or a NIA sign-in), never through a value the
 * client sends (a birth number, names, a document number). Only the token's sha256 is stored,
 * in a table every instance shares, with an expiry; a token may be used until then (validate,
 * submit, retries). Expired rows are deleted by the retention purge (intake/retention.ts).
 */

/** How long a search's match stays good: a long form fill, not a day. */
export const MATCH_TOKEN_HOURS = 4;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
/** A token we could have issued: 43 base64url characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new match token for the person a search found. */
export async function issueMatchToken(db: Db, personId: number, now: Date = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.kysely
    .insertInto('search_matches')
    .values({
      token_hash: hash(token),
      person_id: personId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + MATCH_TOKEN_HOURS * 3_600_000).toISOString(),
    })
    .execute();
  return token;
}

/** The register person a match token was issued for; null for an unknown, malformed or expired token. */
export async function matchedPerson(db: Db, token: unknown, now: Date = new Date()): Promise<number | null> {
  if (typeof token !== 'string' || !TOKEN.test(token)) return null;
  const row = await db.kysely
    .selectFrom('search_matches')
    .select('person_id')
    .where('token_hash', '=', hash(token))
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? Number(row.person_id) : null;
}
