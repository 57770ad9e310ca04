import { addDays, type ValidateBody } from '@ros/domain';
import type { Db } from '../db/database.js';
import { registerToday } from '../records/records.js';
import {
  certificateInForce,
  type PersonIdentity,
  type PersonProof,
  provenPerson,
  resolvePerson,
} from './person.js';
import { hasRecentRequest } from './repository.js';

/**
 * POST /api/ros/validate (PRODUCT.md "Validate"): before the confirmation dialog the form asks
 * whether the request makes sense now. The answer only changes the dialog; submit does not
 * refuse a request for these reasons (the authority decides).
 * - okDate (new requests): false when the person's certificate in force is valid for more
 *   than `renewalWindowDays` more days, or a (non-duplicate) request for the person arrived
 *   in the last `repeatRequestDays` days.
 * - okDuplications (duplicate requests): false when the person holds no certificate in force,
 *   or a duplicate request for the person arrived in the last `repeatRequestDays` days.
 * Each flag is true for the other kind of request.
 */

export interface RequestRules {
  /** A new request is accepted at the earliest this many days before the certificate expires. */
  renewalWindowDays: number;
  /** A request of the same kind for the same person within this many days is flagged. */
  repeatRequestDays: number;
  /** The PDF link of a request works for this many days. */
  pdfLinkDays: number;
}

/** Defaults of the settings ROS_RENEWAL_WINDOW_DAYS, ROS_REPEAT_REQUEST_DAYS, ROS_PDF_LINK_DAYS. */
export const DEFAULT_REQUEST_RULES: RequestRules = {
  renewalWindowDays: 90,
  repeatRequestDays: 30,
  pdfLinkDays: 30,
};

/** The rules from the config, each falling back to its default. */
export function requestRules(config: Partial<RequestRules>): RequestRules {
  const pick = (k: keyof RequestRules) => {
    const v = config[k];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_REQUEST_RULES[k];
  };
  return {
    renewalWindowDays: pick('renewalWindowDays'),
    repeatRequestDays: pick('repeatRequestDays'),
    pdfLinkDays: pick('pdfLinkDays'),
  };
}

/** The validate body: the shared rule (packages/domain, validatePayload.ts). */
export { type ValidateBody, validateBodySchema } from '@ros/domain';

export interface ValidateAnswer {
  okDate: boolean;
  okDuplications: boolean;
}

export function identityOf(body: ValidateBody): PersonIdentity {
  return {
    first_name: body.first_name,
    last_name: body.last_name,
    birth_date: body.birth_date,
    birth_number: body.birth_number,
    aifo: body.aifo ?? '',
    document_number: body.document_number,
  };
}

/**
 * The answer for a body. Only a proved person (the body's `match`, a NIA sign-in: see
 * provenPerson) brings in the register's certificate; without proof the flags look at the
 * requests made with the same identifiers only, so validate tells nothing about a register
 * person to someone who merely knows their birth number.
 */
export async function validateRequest(
  db: Db,
  body: ValidateBody,
  rules: RequestRules,
  proof: PersonProof = {},
  now: Date = new Date(),
): Promise<ValidateAnswer> {
  const person = resolvePerson(
    identityOf(body),
    await provenPerson(db, { ...proof, match: body.match }, now),
  );
  const certificate = person.personId !== null ? await certificateInForce(db, person.personId, now) : null;
  const since = new Date(now.getTime() - rules.repeatRequestDays * 86_400_000).toISOString();
  const recent = await hasRecentRequest(db.kysely, person.key, body.duplicate, since);
  if (body.duplicate) {
    return { okDate: true, okDuplications: certificate !== null && !recent };
  }
  const earliestRenewal = certificate ? addDays(registerToday(now), rules.renewalWindowDays) : null;
  const tooEarly =
    certificate !== null && earliestRenewal !== null && certificate.platnost_do > earliestRenewal;
  return { okDate: !tooEarly && !recent, okDuplications: true };
}
