import {
  matchMismatches,
  newRequestRefusal,
  personIdentity,
  type RegisterPerson,
  type ValidateAnswer,
  type ValidateBody,
} from '@ros/domain';
import type { Db } from '../db/database.js';
import { registerToday } from '../records/records.js';
import {
  certificateInForce,
  type PersonProof,
  provePerson,
  registerPersonData,
  resolvePerson,
} from './person.js';
import { latestRequestSince } from './repository.js';

/**
 * POST /api/ros/validate (docs/requirements.md, product decisions, "Validate"): before the
 * confirmation dialog the form asks whether the request makes sense now. The answer only changes
 * the dialog; submit does not refuse a request for these reasons (the authority decides).
 * - okDate (new requests): false when the person's certificate in force is valid for more
 *   than `renewalWindowDays` more days, or a (non-duplicate) request for the person arrived
 *   in the last `repeatRequestDays` days; `reason` then names which (newRequestRefusal of
 *   @ros/domain, with its dates: issue 28).
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

export type { ValidateAnswer };

/**
 * A register person for the paths that prove nothing, so that they run the same comparison as a
 * proved one (the answer must not tell, by its time either, whether a token was good).
 */
const NOBODY: RegisterPerson = {
  jmeno: 'Nikdo',
  prijmeni: 'Nikdo',
  rc: '000101/0000',
  dat_nar: '2000-01-01',
  typ_op_pas: 'ID',
  op_pas: '000000000',
};

/** The answer without proof: the same for everyone (no certificate is known, no request counted). */
export const unprovedAnswer = (duplicate: boolean): ValidateAnswer => ({
  okDate: true,
  okDuplications: !duplicate,
});

/**
 * The answer for a body. Only a proved person brings in anything person-specific (issue 21): a
 * complete NIA sign-in, or the body's `match` when the body names that token's person
 * (matchMismatches of @ros/domain: the bound identity fields the prefill locked). Anything else
 * (no token, an unknown, expired, spent or another person's token, another person's birth number
 * with a good token) gets unprovedAnswer, after the same queries as a proved body, so that
 * validate, which has no bot check, is no oracle of who holds a certificate or has filed a request.
 */
export async function validateRequest(
  db: Db,
  body: ValidateBody,
  rules: RequestRules,
  proof: PersonProof = {},
  now: Date = new Date(),
): Promise<ValidateAnswer> {
  const proved = await provePerson(db, { ...proof, match: body.match }, now);
  const stored = await registerPersonData(db, proved.personId);
  // Who the body says the person is: compared with the token's person (the bound fields it has).
  const identity = personIdentity(body);
  const wrong = matchMismatches(stored ?? NOBODY, identity, { duplicate: body.duplicate, today: now });
  const bound = proved.matchHash === null || wrong.length === 0;
  const personId = stored && bound ? proved.personId : null;
  const person = resolvePerson(identity, personId);
  const certificate = await certificateInForce(db, personId ?? -1, now);
  const since = new Date(now.getTime() - rules.repeatRequestDays * 86_400_000).toISOString();
  const last = await latestRequestSince(db.kysely, person.key, body.duplicate, since);
  if (personId === null) return unprovedAnswer(body.duplicate);
  if (body.duplicate) {
    return { okDate: true, okDuplications: certificate !== null && last === null };
  }
  const reason = newRequestRefusal({
    today: registerToday(now),
    validUntil: certificate?.platnost_do ?? null,
    lastRequestOn: last === null ? null : registerToday(new Date(last)),
    renewalWindowDays: rules.renewalWindowDays,
    repeatRequestDays: rules.repeatRequestDays,
  });
  return reason ? { okDate: false, okDuplications: true, reason } : { okDate: true, okDuplications: true };
}
