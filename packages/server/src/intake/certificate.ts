import { MAX_RECORD_ID, parseValidityId, type RegisterPerson, validityCode } from '@ros/domain';
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { identityKey } from '../requests/person.js';

type Executor = Db['kysely'] | Transaction<Database>;

/** Why a certificate id was refused, for the field (400 CERTIFICATE_MISMATCH, docs/status.md). */
export const CERTIFICATE_MISMATCH_MESSAGE =
  "must be the validity-check id of a certificate of this request's person in the register";

/**
 * Whether `certificate` (a validity-check id, `5001x2065`) names a certificate in the register
 * whose code is right and whose person is the request's (issue 33: any well-formed id, "1x1",
 * was accepted and linked from the status page). The request's person is the register person it
 * was linked to (`person_key` `person:<id>`: a search's match or a NIA sign-in), or, for a new
 * applicant the authority has since put into the register, the register person whose identity
 * gives the request's key (birth number, else AIFO, else names, birth date and document:
 * requests/person.ts identityKey). An erased request has no key left: nothing matches it.
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
    .select(['data', 'aifo'])
    .where('id', '=', record.person_id)
    .executeTakeFirst();
  if (!person) return false;
  const p = JSON.parse(person.data) as RegisterPerson;
  const key = identityKey({
    first_name: p.jmeno,
    last_name: p.prijmeni,
    birth_date: p.dat_nar ?? '',
    birth_number: p.rc ?? '',
    aifo: person.aifo ?? '',
    document_number: p.op_pas ?? '',
  });
  return key !== null && key === personKey;
}
