import { z } from 'zod';
import type { Db } from '../db/database.js';
import { registerToday } from '../records/records.js';
import { certificateInForce, type PersonIdentity, resolvePerson } from './person.js';
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

const str = (max: number) => z.string().max(max);

/** The validate body of spec section 3 (Payloads); unknown keys are refused. */
export const validateBodySchema = z
  .object({
    first_name: str(240),
    last_name: str(240),
    birth_date: str(40),
    municipality: str(240).optional(),
    aifo: str(240).nullable().optional(),
    document_number: str(240),
    birth_number: str(40),
    duplicate: z.boolean(),
  })
  .strict();
export type ValidateBody = z.output<typeof validateBodySchema>;

export interface ValidateAnswer {
  okDate: boolean;
  okDuplications: boolean;
}

/** 'YYYY-MM-DD' plus whole days. */
function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
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

export async function validateRequest(
  db: Db,
  body: ValidateBody,
  rules: RequestRules,
  now: Date = new Date(),
): Promise<ValidateAnswer> {
  const person = await resolvePerson(db, identityOf(body));
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
