import { parseReference, storedFormValues, type ValidityAnswer, validityCode } from '@ros/domain';
import type { Db } from '../db/database.js';
import { registerPersonsOf } from '../intake/certificate.js';
import { isInForce, registerToday, toValidityAnswer } from '../records/records.js';

/**
 * The certificates a clerk may issue a request with (issue 38, docs/console-data.md
 * "Certificates"): those in the register of the request's person, found by the same resolution
 * as the check of an issued certificate (intake/certificate.ts registerPersonsOf and
 * isCertificateOf), so every id offered here passes that check. The clerk picks one; nobody types
 * an id. None for an erased request or one whose person the register does not know.
 */
export interface ConsoleCertificate {
  /** The validity-check id, `5001x2065` (what `issued` takes and the status page links). */
  id: string;
  /** ISO 'YYYY-MM-DD': valid through that day. */
  validTo: string;
  /** In force today in Prague (records/records.ts isInForce): the register says so, not revoked, not expired. */
  inForce: boolean;
  /** What the public validity check answers for it today (records/records.ts toValidityAnswer). */
  validity: ValidityAnswer;
}

/** The request's person's certificates, the longest valid first. */
export async function certificatesOfRequest(
  db: Db,
  reference: string,
  now: Date = new Date(),
): Promise<ConsoleCertificate[]> {
  const ref = parseReference(reference);
  if (!ref) return [];
  const request = await db.kysely
    .selectFrom('requests')
    .select(['person_key', 'payload', 'erased_at'])
    .where('reference', '=', ref)
    .executeTakeFirst();
  if (!request || request.erased_at !== null) return [];
  const persons = await registerPersonsOf(db.kysely, request.person_key, storedFormValues(request.payload));
  if (persons.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('records')
    .select([
      'id',
      'stav',
      'platnost_do',
      'a1a3_valid_until',
      'a2_valid_until',
      'first_name',
      'last_name',
      'revoked_at',
    ])
    .where('person_id', 'in', persons)
    .orderBy('platnost_do', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const today = registerToday(now);
  return rows.flatMap((r) => {
    const code = validityCode(r.platnost_do);
    if (code === null) return [];
    return [
      {
        id: `${Number(r.id)}x${code}`,
        validTo: r.platnost_do,
        inForce: isInForce(r, today),
        validity: toValidityAnswer(r, today),
      },
    ];
  });
}
