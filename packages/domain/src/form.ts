// The request form's rules (spec section 5) as the zod schema that both the browser
// (react-hook-form) and the server (submit) run, and the values' storage form. The values,
// their defaults and the context are values.ts's; each field's kind and length fields.ts's.

import { z } from 'zod';
import { birthNumberError, normalizeBirthNumber } from './birthNumber.js';
import { type BodyLimits, formBodyLimits, MAX_ISSUES } from './bounds.js';
import {
  areRowsRequired,
  hasConflictingDuplicateTypes,
  isBirthNumberRequired,
  isDialCodeEnabled,
  isDistrictEnabled,
  isField2Enabled,
  isFieldHidden,
  isFieldRequired,
  isSecondCitizenshipEnabled,
} from './conditions.js';
import {
  dataMailboxError,
  dialCodeError,
  emailError,
  normalizeTelephone,
  telephoneError,
} from './contact.js';
import { birthDateError, parseIsoDate, resolveToday, type Today } from './dates.js';
import { FIELDS, isMultiline, maxLengthFor } from './fields.js';
import { MESSAGE_KEYS, type MessageKey, type ValidationError } from './messages.js';
import { activityMonthError, employerStartError, fromToError, normalizeMonthYear } from './monthYear.js';
import { normalizeText, textPolicyError } from './text.js';
import {
  type AbroadStay,
  ACTIVITY_TYPES,
  type FormContext,
  type FormFieldName,
  type FormValues,
  SEX_CODES,
  TEXT_FIELDS,
  type TextFieldName,
} from './values.js';

/** Size, nesting and value count of the largest valid submit body (bounds.ts). */
// Pure: a bundle that does not use it (the browser) leaves the computation out.
export const FORM_BODY_LIMITS: BodyLimits = /* @__PURE__ */ formBodyLimits(TEXT_FIELDS);

// ---------------------------------------------------------------------------------
// The schema

/** Wrong JSON type (only a hand-made request can do that): `required` when missing, else `pattern`. */
const typeError = (iss: { input?: unknown }) => (iss.input === undefined ? 'required' : 'pattern');
const text = () => z.string({ error: typeError });
/**
 * A list whose length is checked before any of its items is looked at (issue 11: zod 4 checks
 * a z.array's `.max` only after every item, so 100,000 items cost seconds). Too long: one
 * `maxlength` issue and the items are never read.
 */
const list = <T extends z.ZodType>(item: T, max: number) =>
  z
    .any()
    .check((c) => {
      if (Array.isArray(c.value) && c.value.length > max) {
        c.issues.push({ code: 'custom', message: 'maxlength', params: { max }, input: undefined });
      }
    })
    .pipe(z.array(item, { error: typeError }));

const pastActivityShape = z.object({
  from: text(),
  to: text(),
  type: z.enum(['', ...ACTIVITY_TYPES], { error: typeError }),
  field1: text(),
  field2: text(),
});

const abroadStayShape = z.object({ state: text(), reason: text() });

/** The shape alone: types of every field, no rules. */
/** The form values' shape without the rules (buildFormSchema adds them; the API contract describes the submit body with it). */
export const formShape = z.object({
  ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f, text()])) as Record<
    TextFieldName,
    ReturnType<typeof text>
  >),
  sex: z.enum(['', ...SEX_CODES], { error: typeError }),
  other_citizenships: list(text(), FIELDS.other_citizenships.maxItems),
  duplicate_type: list(text(), FIELDS.duplicate_type.maxItems),
  past_activities: list(pastActivityShape, FIELDS.past_activities.maxItems),
  abroad_stay: list(abroadStayShape, FIELDS.abroad_stay.maxItems),
  send_notifications_email: z.boolean({ error: typeError }),
  send_notifications_phone: z.boolean({ error: typeError }),
});

// The shape and the FormValues interface must stay the same type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const shapeMatchesFormValues: Same<z.infer<typeof formShape>, FormValues> = true;
void shapeMatchesFormValues;

const isBlank = (s: string) => s.trim() === '';
const MESSAGE_KEY_SET: ReadonlySet<string> = new Set(MESSAGE_KEYS);

type Path = Array<string | number>;
type Report = (path: Path, key: MessageKey, params?: Record<string, string | number>) => void;

function checkMaxLength(report: Report, path: Path, value: string): boolean {
  const max = maxLengthFor(path);
  if (value.length <= max) return true;
  report(path, 'maxlength', { max });
  return false;
}

/** Maximum length, then the text policy (text.ts): the two rules every text always gets. */
function checkText(report: Report, path: Path, value: string): boolean {
  if (!checkMaxLength(report, path, value)) return false;
  const error = textPolicyError(value, { multiline: isMultiline(path) });
  if (!error) return true;
  report(path, error);
  return false;
}

/**
 * Every rule of spec section 5 over a complete set of values, reported in field order,
 * at most one issue per path and at most MAX_ISSUES in all. Pure: the same values, context
 * and today give the same issues. Read-only (prefilled) fields get every rule too: a value
 * equal to the register's is not trusted (issue 11); prefillFromRegister leaves a register
 * value that fails a rule editable, so that the user can correct it.
 */
export function validateFormValues(values: FormValues, ctx: FormContext, today?: Today): FormIssue[] {
  const now = resolveToday(today);
  const issues: FormIssue[] = [];
  const seen = new Set<string>();
  const report: Report = (path, key, params) => {
    const id = path.join('.');
    if (seen.has(id) || issues.length >= MAX_ISSUES) return;
    seen.add(id);
    issues.push(params ? { path, key, params } : { path, key });
  };
  const hidden = (f: FormFieldName) => isFieldHidden(f, ctx);

  // Text fields: maximum length and the text policy always (storage), then required, then each format.
  for (const field of TEXT_FIELDS) {
    const value = values[field];
    if (!checkText(report, [field], value)) continue;
    if (isBlank(value)) {
      if (isFieldRequired(field, values, ctx)) report([field], 'required');
      continue;
    }
    if (hidden(field)) continue;
    const error = formatError(field, values, ctx, now);
    if (error) report([field], error);
  }

  // Lists of codes.
  for (const field of ['other_citizenships', 'duplicate_type'] as const) {
    const items = values[field];
    // A list past its limit is one issue; its items are not looked at.
    if (items.length > maxLengthFor(field)) {
      report([field], 'maxlength', { max: maxLengthFor(field) });
      continue;
    }
    items.forEach((item, i) => {
      if (checkText(report, [field, i], item) && isBlank(item)) report([field, i], 'pattern');
    });
  }
  if (ctx.duplicate) {
    if (values.duplicate_type.length === 0) report(['duplicate_type'], 'required');
    else if (hasConflictingDuplicateTypes(values.duplicate_type)) report(['duplicate_type'], 'pattern');
  }

  // Rows: maximum lengths always; required fields and month rules except in duplicate mode.
  const rowsRequired = areRowsRequired(ctx);
  const maxActivities = FIELDS.past_activities.maxItems;
  const tooManyActivities = values.past_activities.length > maxActivities;
  if (tooManyActivities) report(['past_activities'], 'maxlength', { max: maxActivities });
  (tooManyActivities ? [] : values.past_activities).forEach((row, i) => {
    const base: Path = ['past_activities', i];
    // The row's columns as the catalogue has them; one that is off (field2 for type Other) is not required.
    const columns = FIELDS.past_activities.columns;
    for (const f of Object.keys(columns) as Array<keyof typeof columns>) {
      if (!checkText(report, [...base, f], row[f])) continue;
      if (!rowsRequired) continue;
      if (columns[f].enabled?.(row) === false) continue;
      if (isBlank(row[f])) {
        report([...base, f], 'required');
        continue;
      }
      if (columns[f].kind === 'monthYear') {
        const error = activityMonthError(row[f], now);
        if (error) report([...base, f], error);
      }
    }
    if (rowsRequired) {
      const order = fromToError(row.from, row.to);
      if (order && !activityMonthError(row.from, now)) report([...base, 'to'], order);
    }
  });

  const maxStays = FIELDS.abroad_stay.maxItems;
  const tooManyStays = values.abroad_stay.length > maxStays;
  if (tooManyStays) report(['abroad_stay'], 'maxlength', { max: maxStays });
  (tooManyStays ? [] : values.abroad_stay).forEach((row, i) => {
    for (const f of Object.keys(FIELDS.abroad_stay.columns) as Array<keyof AbroadStay>) {
      const path: Path = ['abroad_stay', i, f];
      if (checkText(report, path, row[f]) && rowsRequired && isBlank(row[f])) report(path, 'required');
    }
  });

  return issues;
}

/** The format rule of a filled, visible, editable text field. */
function formatError(
  field: TextFieldName,
  values: FormValues,
  ctx: FormContext,
  today: Today,
): MessageKey | null {
  const value = values[field];
  switch (field) {
    case 'birth_date':
      return birthDateError(value, today);
    case 'birth_number': {
      // Checked only where it is required (a Czech citizen, spec section 4); a foreign
      // applicant may leave it empty or write their number as they have it.
      if (!isBirthNumberRequired(values, ctx)) return null;
      // The birth date takes part only when it is itself valid.
      const date = birthDateError(values.birth_date, today) ? null : parseIsoDate(values.birth_date.trim());
      return birthNumberError(value, date);
    }
    case 'employer_current_from':
      return employerStartError(value, today);
    case 'dial_code':
      // Only with a telephone: without one the dial code means nothing and is not stored.
      return isDialCodeEnabled(values.telephone) ? dialCodeError(value, ctx.dialCodes) : null;
    case 'telephone':
      return telephoneError(value);
    case 'email':
      return emailError(value);
    case 'data_mailbox':
      return dataMailboxError(value);
    default:
      return null;
  }
}

/** One failed rule: where (issue path by the spec's field names) and which message key. */
export interface FormIssue extends ValidationError {
  path: Path;
}

/**
 * The zod schema of the whole request form for a context and a day. The issue messages
 * are the spec's message keys; `maxlength` issues carry `params: { max }` (the UI can
 * also get it from maxLengthFor(path), since form resolvers drop params). The browser
 * runs it in react-hook-form (@hookform/resolvers/zod), the server on submit.
 * Values are not transformed: parse output = input (see normalizeFormValues for storage).
 */
export function buildFormSchema(context: FormContext, today?: Today): z.ZodType<FormValues, FormValues> {
  const day = resolveToday(today);
  return formShape.superRefine((values, zctx) => {
    for (const issue of validateFormValues(values, context, day)) {
      zctx.addIssue({
        code: 'custom',
        path: issue.path,
        message: issue.key,
        input: undefined,
        ...(issue.params ? { params: issue.params } : {}),
      });
    }
  });
}

/** Turns zod issues into `{ 'past_activities.0.from': { key, params } }`, the first issue per path. */
export function issuesToFieldErrors(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; params?: unknown }>,
): Record<string, ValidationError> {
  const out: Record<string, ValidationError> = {};
  for (const issue of issues.slice(0, MAX_ISSUES * 2)) {
    const id = issue.path.map(String).join('.');
    if (id in out) continue;
    const key = (MESSAGE_KEY_SET.has(issue.message) ? issue.message : 'pattern') as MessageKey;
    const params =
      issue.params && typeof issue.params === 'object'
        ? (issue.params as Record<string, string | number>)
        : undefined;
    out[id] = params ? { key, params } : { key };
  }
  return out;
}

/**
 * The values as they should be stored, after the schema accepted them: text NFC-normalised and trimmed,
 * telephone without spaces, birth number without slash or spaces, month/years as MM/YYYY,
 * and what the conditions disable emptied (birth_district outside CZ, citizen_of_2 for
 * ##, field2 for type Other, the dial code and the phone notification without a telephone).
 */
export function normalizeFormValues(input: FormValues): FormValues {
  const values = nfcValues(input);
  const out: FormValues = { ...values };
  for (const field of TEXT_FIELDS) {
    (out as unknown as Record<TextFieldName, string>)[field] = values[field].trim();
  }
  out.telephone = normalizeTelephone(values.telephone);
  out.birth_number = normalizeBirthNumber(values.birth_number);
  out.employer_current_from = normalizeMonthYear(out.employer_current_from) ?? out.employer_current_from;
  if (!isDistrictEnabled(out.birth_state)) out.birth_district = '';
  if (!isSecondCitizenshipEnabled(out.citizen_of_1)) out.citizen_of_2 = '';
  out.other_citizenships = values.other_citizenships.map((c) => c.trim());
  out.duplicate_type = values.duplicate_type.map((c) => c.trim());
  out.past_activities = values.past_activities.map((row) => ({
    from: normalizeMonthYear(row.from) ?? row.from.trim(),
    to: normalizeMonthYear(row.to) ?? row.to.trim(),
    type: row.type,
    field1: row.field1.trim(),
    field2: isField2Enabled(row.type) ? row.field2.trim() : '',
  }));
  out.abroad_stay = values.abroad_stay.map((row) => ({ state: row.state.trim(), reason: row.reason.trim() }));
  if (out.telephone === '') {
    out.dial_code = '';
    out.send_notifications_phone = false;
  }
  return out;
}

/** Every text of the values in Unicode NFC (the text policy's storage form). */
function nfcValues(v: FormValues): FormValues {
  const out: FormValues = { ...v };
  for (const field of TEXT_FIELDS)
    (out as unknown as Record<string, string>)[field] = normalizeText(v[field]);
  out.other_citizenships = v.other_citizenships.map(normalizeText);
  out.duplicate_type = v.duplicate_type.map(normalizeText);
  out.past_activities = v.past_activities.map((r) => ({
    ...r,
    from: normalizeText(r.from),
    to: normalizeText(r.to),
    field1: normalizeText(r.field1),
    field2: normalizeText(r.field2),
  }));
  out.abroad_stay = v.abroad_stay.map((r) => ({
    state: normalizeText(r.state),
    reason: normalizeText(r.reason),
  }));
  return out;
}
