import {
  type FormValues,
  MAX_RECORD_ID,
  PERSON_KEYS,
  type PersonKeyKind,
  parseValidityId,
  personKeyValues,
  type RegisterPerson,
  validityCode,
} from '@ros/domain';
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, PersonTable } from '../db/schema.js';
import { identityKey, registerIdentity } from '../requests/person.js';

type Executor = Db['kysely'] | Transaction<Database>;

/** Why a certificate id was refused, for the field (400 CERTIFICATE_MISMATCH, docs/status.md). */
export const CERTIFICATE_MISMATCH_MESSAGE =
  "must be the validity-check id of a certificate of this request's person in the register";

/**
 * The request's person in the register (issue 33; one resolution for "is this certificate of the
 * person" and "the person's certificates", console/certificates.ts): the register person the
 * request was linked to (`person_key` `person:<id>`: a search's match or a NIA sign-in), or, for
 * a new applicant the authority has since put into the register, the register person whose
 * identity gives the request's key (birth number, else AIFO, else names, birth date and document:
 * requests/person.ts identityKey). An erased request has no key left: it has no person.
 */

/** The person id of a `person:<id>` key, else null. */
function linkedPersonId(personKey: string): number | null {
  const m = /^person:([1-9][0-9]{0,9})$/.exec(personKey);
  return m ? Number(m[1]) : null;
}

type PersonRow = { id: number | string; data: string; aifo: string | null };

/** Whether a register person is the request's person (the one rule of both directions). */
function isRequestsPerson(personKey: string, person: PersonRow): boolean {
  if (personKey === `person:${Number(person.id)}`) return true;
  if (linkedPersonId(personKey) !== null) return false;
  const p = JSON.parse(person.data) as RegisterPerson;
  const key = identityKey(registerIdentity(p, person.aifo));
  return key !== null && key === personKey;
}

/**
 * The persons table's columns a person key is looked up by (register/persons.ts personRow writes
 * each as its field is compared), by the key's kind and in the order of its fields
 * (@ros/domain PERSON_KEYS); null for a field the table has no column of (the names' key's
 * document number), which the persons found are checked on (isRequestsPerson).
 */
export const LOOKUP_COLUMNS = {
  rc: ['birth_number_norm'],
  aifo: ['aifo'],
  ndd: ['first_name_norm', 'last_name_norm', 'birth_date', null],
} as const satisfies Record<PersonKeyKind, ReadonlyArray<keyof PersonTable | null>>;

/**
 * The register persons who are the request's person (usually none or one): for a linked request
 * its person; else the persons the request's own values point at by the kind of its key (birth
 * number through its index, AIFO, or names and birth date: LOOKUP_COLUMNS), kept only when their
 * identity gives the request's key.
 */
export async function registerPersonsOf(
  db: Executor,
  personKey: string | null,
  values: Partial<FormValues>,
): Promise<number[]> {
  if (personKey === null) return [];
  const linked = linkedPersonId(personKey);
  if (linked !== null) return [linked];
  const key = PERSON_KEYS.find((k) => personKey.startsWith(`${k.kind}:`));
  if (key === undefined) return [];
  const compared = personKeyValues(key, values);
  let q = db.selectFrom('persons').select(['id', 'data', 'aifo']);
  for (const [i, column] of LOOKUP_COLUMNS[key.kind].entries()) {
    if (column === null) continue;
    const value = compared[i] ?? '';
    if (value === '') return [];
    q = q.where(column, '=', value);
  }
  const rows = await q.orderBy('id').limit(20).execute();
  return rows.filter((r) => isRequestsPerson(personKey, r)).map((r) => Number(r.id));
}

/**
 * Whether `certificate` (a validity-check id, `5001x2065`) names a certificate in the register
 * whose code is right and whose person is the request's (issue 33: any well-formed id, "1x1",
 * was accepted and linked from the status page).
 */
export async function isCertificateOf(
  db: Executor,
  personKey: string | null,
  certificate: string,
): Promise<boolean> {
  const id = parseValidityId(certificate);
  if (!id || personKey === null) return false;
  const recordId = Number(id.recordId);
  if (recordId > MAX_RECORD_ID) return false;
  const record = await db
    .selectFrom('records')
    .select(['person_id', 'platnost_do'])
    .where('id', '=', recordId)
    .executeTakeFirst();
  if (!record || record.person_id === null) return false;
  if (String(validityCode(record.platnost_do)) !== id.code) return false;
  if (personKey === `person:${record.person_id}`) return true;
  const person = await db
    .selectFrom('persons')
    .select(['id', 'data', 'aifo'])
    .where('id', '=', record.person_id)
    .executeTakeFirst();
  return person !== undefined && isRequestsPerson(personKey, person);
}
