import {
  backfillFormValues,
  buildFormSchema,
  type Catalogue,
  codedValues,
  coverageOk,
  defaultFormContext,
  FIELDS,
  type FormContext,
  type FormValues,
  isLegalVersion,
  issuesToFieldErrors,
  issuesToProblems,
  legalEnvelopeSchema,
  matchMismatches,
  normalizeFormValues,
  personIdentity,
  type RegisterPerson,
  registerFormContext,
  SUBMIT_ERROR_CODES,
  submitEnvelopeSchema,
} from '@ros/domain';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';
import { type Proof, type ResolvedPerson, registerPersonData, resolvePerson } from './person.js';
import type { AgreedTexts, RequestLanguage } from './repository.js';

/**
 * The submit body (spec section 3): the form values plus `language` and `duplicate`; the two
 * notification flags are form values. Everything is checked here, on the server, with the
 * same rules as the form (packages/domain), under a context the server works out itself.
 */

export { SUBMIT_ERROR_CODES };

type FieldError = { path: string; message: string };

export interface AcceptedSubmission {
  language: RequestLanguage;
  duplicate: boolean;
  /** Normalised values, as stored. */
  values: FormValues;
  person: ResolvedPerson;
  context: FormContext;
  /** What the request proved; `matchHash` is spent when the request is stored. */
  proof: Proof;
  /** What the applicant agreed to: the version and the five boxes. */
  legal: AgreedTexts;
}

/**
 * The dialog's part of the body (issue 22): a known version of the legal texts, and the three
 * required declarations ticked (a request without them is not one the applicant made: 400
 * INVALID_FORM, `required` at `declaration_*`; an unknown version: `pattern` at `legal_version`).
 */
function checkLegal(raw: Record<string, unknown>): {
  legal: Omit<AgreedTexts, 'ticked'>;
  ticked: Record<'signature' | 'affidavit' | 'purpose', boolean>;
} {
  const parsed = legalEnvelopeSchema.safeParse({
    legal_version: raw.legal_version,
    legal_channel: raw.legal_channel,
    declaration_signature: raw.declaration_signature,
    declaration_affidavit: raw.declaration_affidavit,
    declaration_purpose: raw.declaration_purpose,
  });
  if (!parsed.success) throw invalidForm(issuesToProblems(parsed.error.issues, { messageKeys: true }));
  const d = parsed.data;
  const errors: FieldError[] = [];
  if (!isLegalVersion(d.legal_version)) errors.push({ path: 'legal_version', message: 'pattern' });
  for (const key of ['signature', 'affidavit', 'purpose'] as const) {
    if (d[`declaration_${key}`] !== true) errors.push({ path: `declaration_${key}`, message: 'required' });
  }
  if (errors.length > 0) throw invalidForm(errors);
  return {
    legal: { version: d.legal_version },
    ticked: { signature: true, affidavit: true, purpose: true },
  };
}

const invalidForm = (fields: FieldError[]) =>
  new ApiError(400, SUBMIT_ERROR_CODES.invalidForm, 'The request form is not valid', fields.slice(0, 100));

/**
 * The form context of a submission, never taken from the browser. For a register person the
 * request proves (a search's match token or a NIA sign-in, see provePerson) the form was
 * prefilled from the register: `noPrefill` is off and the prefill's read-only fields are
 * known (they decide whether the data mailbox is shown). Every rule still runs on every field:
 * a value equal to the register's is not trusted (issue 11). Without proof there was no
 * prefill: the data mailbox is shown, as in the browser; unless the body carries a match token
 * that proves nothing (any more: expired, or spent by another request) (`searched`): the form
 * was prefilled then, but the register is not linked.
 */
export function deriveContext(
  person: RegisterPerson | undefined,
  duplicate: boolean,
  now: Date = new Date(),
  opts: { searched?: boolean } = {},
): FormContext {
  if (!person) return defaultFormContext({ duplicate, noPrefill: !opts.searched });
  // The browser's prefill computes the same context (prefillStart.ts).
  return registerFormContext(person, { duplicate, today: now });
}

/**
 * Codes that must exist in the reference data: every filled country, municipality, district and
 * code-list value of a field that is on (the catalogue's codedValues: shown in this mode, enabled,
 * not free text). Choices are checked by the form schema itself.
 */
async function unknownCodes(
  db: Db,
  v: FormValues,
  ctx: FormContext,
  catalogue: Catalogue,
): Promise<FieldError[]> {
  const coded = codedValues(v, ctx, catalogue);
  const inTable: Record<'countries' | 'municipalities' | 'districts', Array<[string, string]>> = {
    countries: [],
    municipalities: [],
    districts: [],
  };
  const listed: Array<[path: string, list: string, code: string]> = [];
  for (const { path, spec, code } of coded) {
    if (spec.kind === 'country') inTable.countries.push([path, code]);
    else if (spec.kind === 'municipality') inTable.municipalities.push([path, code]);
    else if (spec.kind === 'district') inTable.districts.push([path, code]);
    else if (spec.kind === 'list') listed.push([path, spec.list, code]);
  }

  const errors: FieldError[] = [];
  for (const [table, values] of Object.entries(inTable) as Array<
    [keyof typeof inTable, Array<[string, string]>]
  >) {
    const codes = [...new Set(values.map(([, c]) => c))];
    if (codes.length === 0) continue;
    const rows = await db.kysely.selectFrom(table).select('code').where('code', 'in', codes).execute();
    const known = new Set(rows.map((r) => r.code));
    for (const [path, code] of values) if (!known.has(code)) errors.push({ path, message: 'pattern' });
  }
  if (listed.length > 0) {
    const rows = await db.kysely
      .selectFrom('code_lists')
      .select(['list', 'code', 'disabled'])
      .where(
        'list',
        'in',
        listed.map(([, l]) => l),
      )
      .execute();
    // A disabled item is shown but cannot be chosen.
    const known = new Set(
      rows.filter((r) => Number(r.disabled) === 0).map((r) => `${r.list}\u0000${r.code}`),
    );
    for (const [path, list, code] of listed) {
      if (!known.has(`${list}\u0000${code}`)) errors.push({ path, message: 'pattern' });
    }
  }
  return errors;
}

/**
 * Checks a submit body (its shape was bounded by requests/jsonBody.ts before it was parsed)
 * under what the request proved (`proof`, provePerson: the body's `match` or the NIA session).
 * Throws ApiError 400: INVALID_REQUEST when the body is not an object, INVALID_FORM with
 * `fields` (path + message key) for any failed rule or unknown code, MATCH_MISMATCH with the
 * fields when the match token's person is not the one the request names (matchMismatches of
 * @ros/domain), TIME_NOT_COVERED when a new request does not cover the last 60 months.
 * `catalogue`: the field catalogue (FIELDS); a test passes one with a field more.
 */
export async function checkSubmission(
  db: Db,
  body: unknown,
  now: Date,
  proof: Proof,
  catalogue: Catalogue = FIELDS,
): Promise<AcceptedSubmission> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, SUBMIT_ERROR_CODES.invalidRequest, 'The request body must be a JSON object');
  }
  const raw = body as Record<string, unknown>;
  const envelope = submitEnvelopeSchema.safeParse({ language: raw.language, duplicate: raw.duplicate });
  if (!envelope.success) {
    throw invalidForm(issuesToProblems(envelope.error.issues));
  }
  const { language, duplicate } = envelope.data;
  const agreed = checkLegal(raw);
  const registerPerson = proof.personId === null ? undefined : await registerPersonData(db, proof.personId);
  const context = deriveContext(registerPerson, duplicate, now, { searched: proof.searched });
  // A page loaded before a field existed sends none: it reads as its entry's `absent` says (the
  // dial code empty, decision 0003: refused only with a telephone, whose country it cannot tell).
  const input = backfillFormValues(raw, { sent: true }, catalogue);
  const parsed = buildFormSchema(context, now, catalogue).safeParse(input);
  if (!parsed.success) {
    const errors = issuesToFieldErrors(parsed.error.issues);
    throw invalidForm(Object.entries(errors).map(([path, e]) => ({ path, message: e.key })));
  }
  const values = normalizeFormValues(parsed.data, catalogue);
  // A match token proves one person: the request must name that person (issue 21).
  if (proof.matchHash !== null && registerPerson) {
    const wrong = matchMismatches(registerPerson, values, { duplicate, today: now });
    if (wrong.length > 0) {
      throw new ApiError(
        400,
        SUBMIT_ERROR_CODES.matchMismatch,
        'The request names another person than the one its search found',
        wrong.map((path) => ({ path, message: 'matchMismatch' })),
      );
    }
  }
  const person = resolvePerson(personIdentity(values), proof.personId);
  const codeErrors = await unknownCodes(db, values, context, catalogue);
  if (codeErrors.length > 0) throw invalidForm(codeErrors);
  // The month coverage (a new request only: coverageApplies).
  if (!coverageOk(values, context, now)) {
    throw new ApiError(400, SUBMIT_ERROR_CODES.timeNotCovered, 'The last 60 months are not covered');
  }
  const legal: AgreedTexts = {
    version: agreed.legal.version,
    ticked: {
      ...agreed.ticked,
      notify_email: values.send_notifications_email,
      notify_phone: values.send_notifications_phone,
    },
  };
  return { language, duplicate, values, person, context, proof, legal };
}
