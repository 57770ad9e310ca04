import { createHash } from 'node:crypto';
import { normalizeBirthNumber, normalizeDocumentNumber, normalizeName } from '@ros/domain';
import type { Db } from '../db/database.js';
import type { NiaIdentity } from '../nia/sessions.js';
import { isInForce, registerToday } from '../records/records.js';
import { matchedPerson } from './matchToken.js';

/**
 * Who a request is for (PRODUCT.md "Validate"): a register person when the request proves it (a
 * search's match token or a NIA sign-in, see provenPerson); anyone else is recognised by birth
 * number, or by AIFO, or by name + birth date + document number, tried in that order, through a
 * hash of it. Keys hold no personal data in the clear.
 */
export interface PersonIdentity {
  first_name: string;
  last_name: string;
  /** ISO 'YYYY-MM-DD' or '' */
  birth_date: string;
  birth_number: string;
  aifo: string;
  document_number: string;
}

export interface ResolvedPerson {
  /** Register person id, when the register knows the person. */
  personId: number | null;
  /** requests.person_key */
  key: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 32);

/** The key of a person the register does not know, from the strongest identifier given; null when none. */
export function identityKey(id: PersonIdentity): string | null {
  const rc = normalizeBirthNumber(id.birth_number.trim());
  if (rc !== '') return `rc:${digest(rc)}`;
  const aifo = id.aifo.trim();
  if (aifo !== '') return `aifo:${digest(aifo)}`;
  const first = normalizeName(id.first_name);
  const last = normalizeName(id.last_name);
  const doc = normalizeDocumentNumber(id.document_number);
  const date = id.birth_date.trim();
  if (first && last && doc && date) return `ndd:${digest(`${first}\u0000${last}\u0000${date}\u0000${doc}`)}`;
  return null;
}

/**
 * How a request proves it is for a register person (issue 11): the match token of a search that
 * found the person (requests/matchToken.ts), or a complete NIA sign-in whose identifier the
 * register holds. Nothing the client writes (a birth number, AIFO, names and a document) links
 * a request to a register person: a request without such proof is a new applicant's.
 */
export interface PersonProof {
  /** `match` of the search answer, as the browser sends it back. */
  match?: unknown;
  /** The identity of the request's complete NIA session, if any. */
  nia?: NiaIdentity | undefined;
}

/** The register person a request is proved to be for, else null. A NIA sign-in wins over a token. */
export async function provenPerson(
  db: Db,
  proof: PersonProof,
  now: Date = new Date(),
): Promise<number | null> {
  if (proof.nia?.complete) {
    const row = await db.kysely
      .selectFrom('persons')
      .select('id')
      .where('nia_identifier', '=', proof.nia.person_identifier)
      .executeTakeFirst();
    if (row) return Number(row.id);
  }
  return proof.match === undefined ? null : matchedPerson(db, proof.match, now);
}

/**
 * The register person (if proved, see provenPerson) and the person key of a request: a proved
 * person is keyed by their register id, so that their requests meet however they were filled;
 * anyone else by a hash of the strongest identifier given, so that a request without proof
 * never lands on (or flags) a register person's key, whatever birth number it carries.
 */
export function resolvePerson(id: PersonIdentity, personId: number | null): ResolvedPerson {
  if (personId !== null) return { personId, key: `person:${personId}` };
  // Nothing to recognise the person by: a key of its own, so that such requests never meet.
  return { personId: null, key: identityKey(id) ?? `none:${digest(JSON.stringify(id))}` };
}

/** The person's certificate in force today (the one valid longest), if any. */
export async function certificateInForce(
  db: Db,
  personId: number,
  now: Date = new Date(),
): Promise<{ id: number; platnost_do: string } | null> {
  const rows = await db.kysely
    .selectFrom('records')
    .select(['id', 'stav', 'platnost_do', 'revoked_at'])
    .where('person_id', '=', personId)
    .orderBy('platnost_do', 'desc')
    .execute();
  const today = registerToday(now);
  const row = rows.find((r) => isInForce(r, today));
  return row ? { id: Number(row.id), platnost_do: row.platnost_do } : null;
}
