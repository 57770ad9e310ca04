import {
  buildFormSchema,
  codedValues,
  computeCoverage,
  defaultFormContext,
  type FormContext,
  type FormValues,
  isFieldHidden,
  issuesToFieldErrors,
  issuesToProblems,
  normalizeFormValues,
  registerFormContext,
  SUBMIT_ERROR_CODES,
  submitEnvelopeSchema,
} from '@ros/domain';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';
import { getPerson } from '../register/persons.js';
import {
  type PersonIdentity,
  type PersonProof,
  provenPerson,
  type ResolvedPerson,
  resolvePerson,
} from './person.js';
import type { RequestLanguage } from './repository.js';

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
}

const invalidForm = (fields: FieldError[]) =>
  new ApiError(400, SUBMIT_ERROR_CODES.invalidForm, 'The request form is not valid', fields.slice(0, 100));

export function identityOfValues(v: FormValues): PersonIdentity {
  return {
    first_name: v.first_name,
    last_name: v.last_name,
    birth_date: v.birth_date,
    birth_number: v.birth_number,
    aifo: v.aifo,
    document_number: v.document_number,
  };
}

/**
 * The form context of a submission, never taken from the browser. For a register person the
 * request proves (a search's match token or a NIA sign-in, see provenPerson) the form was
 * prefilled from the register: `noPrefill` is off and the prefill's read-only fields are
 * known (they decide whether the data mailbox is shown). Every rule still runs on every field:
 * a value equal to the register's is not trusted (issue 11). Without proof there was no
 * prefill: the data mailbox is shown, as in the browser; unless the body carries a match token
 * that has expired (`searched`): the form was prefilled then, but the register is not linked.
 */
export async function deriveContext(
  db: Db,
  personId: number | null,
  duplicate: boolean,
  now: Date = new Date(),
  opts: { searched?: boolean } = {},
): Promise<FormContext> {
  const stored = personId === null ? undefined : await getPerson(db, personId);
  // A match token that no longer proves anything (expired after MATCH_TOKEN_HOURS): the form was
  // prefilled, so its fields are as the browser showed them, but nothing links the register.
  if (!stored && opts.searched) return defaultFormContext({ duplicate, noPrefill: false });
  if (!stored) return defaultFormContext({ duplicate, noPrefill: true });
  // The browser's prefill computes the same context (prefillStart.ts).
  return registerFormContext(stored.person, { duplicate, today: now });
}

/**
 * Codes that must exist in the reference data: every filled country and code-list value of a
 * field that is on (the catalogue's codedValues: shown in this mode, enabled, not free text).
 */
async function unknownCodes(db: Db, v: FormValues, ctx: FormContext): Promise<FieldError[]> {
  const coded = codedValues(v, ctx);
  const countries: Array<[string, string]> = [];
  const listed: Array<[path: string, list: string, code: string]> = [];
  for (const { path, spec, code } of coded) {
    if (spec.kind === 'country') countries.push([path, code]);
    else if (spec.kind === 'list') listed.push([path, spec.list, code]);
  }

  const errors: FieldError[] = [];
  const countryCodes = [...new Set(countries.map(([, c]) => c))];
  if (countryCodes.length > 0) {
    const rows = await db.kysely
      .selectFrom('countries')
      .select('code')
      .where('code', 'in', countryCodes)
      .execute();
    const known = new Set(rows.map((r) => r.code));
    for (const [path, code] of countries) if (!known.has(code)) errors.push({ path, message: 'pattern' });
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
 * Checks a submit body (its shape was bounded by requests/jsonBody.ts before it was parsed).
 * `proof.nia`: the identity of the request's complete NIA session. Throws ApiError 400: INVALID_REQUEST when the body is not an object,
 * INVALID_FORM with `fields` (path + message key) for any failed rule or unknown code,
 * TIME_NOT_COVERED when a new request does not cover the last 60 months.
 */
export async function checkSubmission(
  db: Db,
  body: unknown,
  now: Date = new Date(),
  proof: Omit<PersonProof, 'match'> = {},
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
  // The body's `match` is the search's proof (requests/matchToken.ts); it is not a form value.
  const personId = await provenPerson(db, { ...proof, match: raw.match }, now);
  const searched = typeof raw.match === 'string' && raw.match !== '';
  const context = await deriveContext(db, personId, duplicate, now, { searched });
  // A page loaded before dial_code existed (decision 0003) sends none: it counts as empty, so
  // it is refused only with a telephone, whose country it cannot tell.
  const input = raw.dial_code === undefined ? { ...raw, dial_code: '' } : raw;
  const parsed = buildFormSchema(context, now).safeParse(input);
  if (!parsed.success) {
    const errors = issuesToFieldErrors(parsed.error.issues);
    throw invalidForm(Object.entries(errors).map(([path, e]) => ({ path, message: e.key })));
  }
  const values = normalizeFormValues(parsed.data);
  const person = resolvePerson(identityOfValues(values), personId);
  const codeErrors = await unknownCodes(db, values, context);
  if (codeErrors.length > 0) throw invalidForm(codeErrors);
  // The month coverage is of the employer and past activities, which duplicate mode hides.
  if (!isFieldHidden('past_activities', context)) {
    const coverage = computeCoverage(
      { employerFrom: values.employer_current_from, activities: values.past_activities },
      now,
    );
    if (!coverage.ok) {
      throw new ApiError(400, SUBMIT_ERROR_CODES.timeNotCovered, 'The last 60 months are not covered');
    }
  }
  return { language, duplicate, values, person, context };
}
