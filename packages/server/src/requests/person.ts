import { createHash } from 'node:crypto';
import {
  FIELDS,
  PERSON_IDENTITY_FIELDS,
  PERSON_KEYS,
  type PersonIdentity,
  type PersonIdentityField,
  personKeyValues,
  type RegisterPerson,
} from '@ros/domain';
import type { Db } from '../db/database.js';
import type { NiaIdentity } from '../nia/sessions.js';
import { isInForce, registerToday } from '../records/records.js';
import { lookUpMatch, provedBy } from './matchToken.js';

/**
 * Who a request is for (docs/requirements.md, product decisions, "Validate"): a register person
 * when the request proves it (a search's match token or a NIA sign-in, see provenPerson); anyone
 * else is recognised by the identity of the request's values (@ros/domain PersonIdentity: birth
 * number, or AIFO, or name + birth date + document number, tried in that order), through a hash of
 * it. Keys hold no personal data in the clear.
 */
export type { PersonIdentity };

/**
 * The register columns of the identity fields whose entry names none (prefill reads them by its
 * own rules): the birth date and the main document's number. AIFO is kept beside the person.
 */
const OWN_IDENTITY_COLUMNS = { birth_date: 'dat_nar', document_number: 'op_pas' } as const;

/**
 * A register person's identity in the form's fields: each identity field from its entry's register
 * column (fields.ts `register`: the names, the birth number) or its own (OWN_IDENTITY_COLUMNS), AIFO
 * as stored beside the person; what the register does not know is ''.
 */
export function registerIdentity(person: RegisterPerson, aifo: string | null): PersonIdentity {
  const columnOf = (field: PersonIdentityField): keyof RegisterPerson | undefined => {
    const spec = FIELDS[field];
    return 'register' in spec && spec.register !== undefined
      ? spec.register
      : (OWN_IDENTITY_COLUMNS as Partial<Record<PersonIdentityField, keyof RegisterPerson>>)[field];
  };
  const out = Object.fromEntries(
    PERSON_IDENTITY_FIELDS.map((field) => {
      const column = columnOf(field);
      const value = column === undefined ? undefined : person[column];
      return [field, typeof value === 'string' ? value : ''];
    }),
  ) as PersonIdentity;
  return { ...out, aifo: aifo ?? '' };
}

export interface ResolvedPerson {
  /** Register person id, when the register knows the person. */
  personId: number | null;
  /** requests.person_key */
  key: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 32);

/**
 * The key of a person the register does not know, from the strongest identifier given: the first
 * person key (@ros/domain PERSON_KEYS: birth number, AIFO, names + birth date + document) whose
 * fields all hold a value, as `<kind>:` and a hash of the compared values; null when none does.
 */
export function identityKey(id: PersonIdentity): string | null {
  for (const key of PERSON_KEYS) {
    const values = personKeyValues(key, id);
    if (values.every((v) => v !== '')) return `${key.kind}:${digest(values.join('\u0000'))}`;
  }
  return null;
}

/**
 * How a request proves it is for a register person (issues 11 and 21): the match token of a
 * search that found the person (requests/matchToken.ts), or a complete NIA sign-in whose
 * identifier the register holds. Nothing the client writes (a birth number, AIFO, names and a
 * document) links a request to a register person: a request without such proof is a new
 * applicant's.
 */
export interface PersonProof {
  /** `match` of the search answer, as the browser sends it back. */
  match?: unknown;
  /** The identity of the request's complete NIA session, if any. */
  nia?: NiaIdentity | undefined;
  /** The submission's Idempotency-Key: a spent token still proves its person to a retry of its request. */
  idempotencyKey?: string | null;
}

/** What a request proved. */
export interface Proof {
  /** The register person proved, else null. */
  personId: number | null;
  /** The hash of the match token that proved the person, or of the NIA session's own unspent token (null without): storing the request spends it. */
  matchHash: string | null;
  /** The body carried a match token (the form was prefilled from a search), whether it proves anything or not. */
  searched: boolean;
}

/** No proof, for a request that carried a token (the form was prefilled) which proves nothing (any more). */
export const unprovedSearch: Proof = { personId: null, matchHash: null, searched: true };

/**
 * The register person a request is proved to be for. A NIA sign-in wins over a token. The token
 * is always looked up (one query), so that every path costs the same.
 */
export async function provePerson(db: Db, proof: PersonProof, now: Date = new Date()): Promise<Proof> {
  const searched = typeof proof.match === 'string' && proof.match !== '';
  const match = await lookUpMatch(db, proof.match, now);
  if (proof.nia?.complete) {
    const row = await db.kysely
      .selectFrom('persons')
      .select('id')
      .where('nia_identifier', '=', proof.nia.person_identifier)
      .executeTakeFirst();
    if (row) {
      // The session's own token (sso-session szr.match) is spent with the request: it finds
      // this request for a retry whose answer was lost with the session (routes/submit.ts).
      const own = match !== null && match.spentBy === null && match.personId === Number(row.id);
      return { personId: Number(row.id), matchHash: own ? match.hash : null, searched };
    }
  }
  const personId = provedBy(match, proof.idempotencyKey);
  return { personId, matchHash: personId !== null && match ? match.hash : null, searched };
}

/** The register data of a person (one query whether or not the person exists). */
export async function registerPersonData(
  db: Db,
  personId: number | null,
): Promise<RegisterPerson | undefined> {
  const row = await db.kysely
    .selectFrom('persons')
    .select('data')
    .where('id', '=', personId ?? -1)
    .executeTakeFirst();
  return row ? (JSON.parse(row.data) as RegisterPerson) : undefined;
}

/**
 * The register person (if proved, see provePerson) and the person key of a request: a proved
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
