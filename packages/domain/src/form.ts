// The request form's rules (spec section 5) as the zod schema that both the browser and the
// server (validate, submit) run. The values, their defaults and the context, and each field's
// kind, length, section, conditions and storage form are the catalogue's (fields.ts).

import { z } from 'zod';
import { type BodyLimits, formBodyLimits, MAX_ISSUES } from './bounds.js';
import { hasConflictingDuplicateTypes } from './conditions.js';
import { type CalendarDate, resolveToday, type Today } from './dates.js';
import {
  type AbroadStay,
  type AnySpec,
  type Catalogue,
  FIELDS,
  type FormContext,
  type FormFieldName,
  type FormValues,
  isFieldEnabled,
  isFieldHidden,
  isFieldRequired,
  isMultiline,
  maxLengthFor,
  specOrder,
  TEXT_FIELDS,
  type ValueSpec,
} from './fields.js';
import { kindOf } from './kinds.js';
import { MESSAGE_KEYS, type MessageKey, UNKNOWN_MESSAGE_KEY, type ValidationError } from './messages.js';
import { activityMonthError, fromToError } from './monthYear.js';
import { once } from './once.js';
import { textPolicyIssue } from './text.js';

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

/** The zod type of one string value: a choice's codes (or nothing chosen), any other string. */
const valueShape = (spec: ValueSpec) =>
  spec.kind === 'choice' ? z.enum(['', ...spec.options], { error: typeError }) : text();

/**
 * The values' shape by a catalogue, no rules: a string per value (a choice one of its codes), a
 * list of strings per list of codes, a list of objects per rows, a boolean per flag; in the spec's
 * field order (specOrder). An object missing a field or with a mistyped one fails; unknown keys
 * are dropped.
 */
export function catalogueShape(catalogue: Catalogue = FIELDS) {
  const shapeOf = (spec: AnySpec): z.ZodType => {
    switch (spec.kind) {
      case 'boolean':
        return z.boolean({ error: typeError });
      case 'items':
        return list(text(), spec.maxItems);
      case 'rows': {
        const columns = Object.entries(spec.columns as Record<string, ValueSpec>);
        return list(
          z.object(Object.fromEntries(columns.map(([c, cs]) => [c, valueShape(cs)]))),
          spec.maxItems,
        );
      }
      default:
        return valueShape(spec);
    }
  };
  return z.object(
    Object.fromEntries(specOrder(catalogue).map((name) => [name, shapeOf(catalogue[name] as AnySpec)])),
  );
}

/** The form values' shape by FIELDS (formShape()). */
export type FormShape = z.ZodObject<{
  [K in FormFieldName]: z.ZodType<FormValues[K], FormValues[K]>;
}>;

/**
 * The form values' shape without the rules (buildFormSchema adds them; the API contract describes
 * the submit body with it), built on first use: a page that loads the rules but does not check a
 * form yet (the search step, step 2 before its first check) does not build 44 schemas while it
 * loads (issue 37: that was the longest task of step 2's load on a phone).
 */
export const formShape: () => FormShape = once(() => catalogueShape(FIELDS) as unknown as FormShape);

const isBlank = (s: string) => s.trim() === '';
const MESSAGE_KEY_SET: ReadonlySet<string> = new Set(MESSAGE_KEYS);

type Path = Array<string | number>;
type Report = (path: Path, key: MessageKey, params?: Record<string, string | number>) => void;

function checkMaxLength(report: Report, path: Path, value: string, catalogue: Catalogue): boolean {
  const max = maxLengthFor(path, catalogue);
  if (value.length <= max) return true;
  report(path, 'maxlength', { max });
  return false;
}

/** Maximum length, then the text policy (text.ts): the two rules every text always gets. */
function checkText(report: Report, path: Path, value: string, catalogue: Catalogue = FIELDS): boolean {
  if (!checkMaxLength(report, path, value, catalogue)) return false;
  const issue = textPolicyIssue(value, { multiline: isMultiline(path, catalogue) });
  if (!issue) return true;
  report(path, issue.key, issue.params);
  return false;
}

/**
 * Every rule of spec section 5 over a complete set of values, reported in field order,
 * at most one issue per path and at most MAX_ISSUES in all. Pure: the same values, context
 * and today give the same issues. Read-only (prefilled) fields get every rule too: a value
 * equal to the register's is not trusted (issue 11); prefillFromRegister leaves a register
 * value that fails a rule editable, so that the user can correct it. `catalogue`: FIELDS; a test
 * passes one with a field more (its text gets the rules every text gets, and `required`).
 */
export function validateFormValues(
  values: FormValues,
  ctx: FormContext,
  today?: Today,
  catalogue: Catalogue = FIELDS,
): FormIssue[] {
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
  const raw = values as unknown as Record<string, unknown>;
  const order = specOrder(catalogue);
  const kindOf = (name: string) => (catalogue[name] as AnySpec).kind;

  // Text fields: maximum length and the text policy always (storage), then required, then each format.
  for (const field of order.filter((f) => !['boolean', 'items', 'rows'].includes(kindOf(f)))) {
    const value = raw[field] as string;
    if (!checkText(report, [field], value, catalogue)) continue;
    if (isBlank(value)) {
      if (isFieldRequired(field, values, ctx, catalogue)) report([field], 'required');
      continue;
    }
    if (isFieldHidden(field, ctx, catalogue)) continue;
    const error = formatError(field, catalogue[field] as ValueSpec, value, values, ctx, now, catalogue);
    if (error) report([field], error);
  }

  // Lists of codes.
  for (const field of order.filter((f) => kindOf(f) === 'items')) {
    const items = raw[field] as string[];
    const max = maxLengthFor(field, catalogue);
    // A list past its limit is one issue; its items are not looked at.
    if (items.length > max) {
      report([field], 'maxlength', { max });
      continue;
    }
    items.forEach((item, i) => {
      if (checkText(report, [field, i], item, catalogue) && isBlank(item)) report([field, i], 'pattern');
    });
  }
  if (!hidden('duplicate_type')) {
    if (values.duplicate_type.length === 0) {
      if (isFieldRequired('duplicate_type', values, ctx)) report(['duplicate_type'], 'required');
    } else if (hasConflictingDuplicateTypes(values.duplicate_type)) report(['duplicate_type'], 'pattern');
  }

  // Rows: maximum lengths always; required columns (isFieldRequired: not in duplicate mode, not
  // when off in their row) and month rules only while the rows are shown.
  const rowsRequired = !hidden('past_activities');
  const maxActivities = FIELDS.past_activities.maxItems;
  const tooManyActivities = values.past_activities.length > maxActivities;
  if (tooManyActivities) report(['past_activities'], 'maxlength', { max: maxActivities });
  (tooManyActivities ? [] : values.past_activities).forEach((row, i) => {
    const base: Path = ['past_activities', i];
    // The row's columns as the catalogue has them; one that is off (field2 for type Other) is not required.
    const columns = FIELDS.past_activities.columns;
    for (const f of Object.keys(columns) as Array<keyof typeof columns>) {
      if (!checkText(report, [...base, f], row[f])) continue;
      if (!isFieldRequired(`past_activities.${i}.${f}`, values, ctx)) continue;
      if (isBlank(row[f])) {
        report([...base, f], 'required');
        continue;
      }
      const error = formatError(`past_activities.${i}.${f}`, columns[f], row[f], values, ctx, now, FIELDS);
      if (error) report([...base, f], error);
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
      if (checkText(report, path, row[f]) && isBlank(row[f]) && isFieldRequired(path.join('.'), values, ctx))
        report(path, 'required');
    }
  });

  return issues;
}

/**
 * The format rule of a filled text field that is shown: its kind's (kinds.ts), while the field is
 * enabled (a dial code without a telephone means nothing and is not stored) and, for a kind checked
 * only where required (a birth number), while it is required. None for a kind without one.
 */
function formatError(
  path: string,
  spec: ValueSpec,
  value: string,
  values: FormValues,
  ctx: FormContext,
  today: CalendarDate,
  catalogue: Catalogue,
): MessageKey | null {
  const kind = kindOf(spec);
  if (!kind.format || !isFieldEnabled(path, values, ctx, catalogue)) return null;
  if (kind.checkedWhen === 'required' && !isFieldRequired(path, values, ctx, catalogue)) return null;
  return kind.format(value, { values, ctx, today, spec });
}

/** One failed rule: where (issue path by the spec's field names) and which message key. */
export interface FormIssue extends ValidationError {
  path: Path;
}

/**
 * The zod schema of the whole request form for a context and a day. The issue messages
 * are the spec's message keys; `maxlength` issues carry `params: { max }` (the UI can
 * also get it from maxLengthFor(path)). The browser runs it on every change in its form status
 * store (packages/web/src/form/request/status.ts), the server on validate and submit.
 * Values are not transformed: parse output = input (see normalizeFormValues for storage).
 */
export function buildFormSchema(
  context: FormContext,
  today?: Today,
  catalogue: Catalogue = FIELDS,
): z.ZodType<FormValues, FormValues> {
  const day = resolveToday(today);
  // The shape of the catalogue's fields; FIELDS's is built once (formShape).
  const shape = catalogue === FIELDS ? formShape() : (catalogueShape(catalogue) as unknown as FormShape);
  return shape.superRefine((values, zctx) => {
    for (const issue of validateFormValues(values, context, day, catalogue)) {
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

/**
 * Turns zod issues into `{ 'past_activities.0.from': { key, params } }`, the first issue per path;
 * a message that is no message key becomes UNKNOWN_MESSAGE_KEY.
 */
export function issuesToFieldErrors(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; params?: unknown }>,
): Record<string, ValidationError> {
  const out: Record<string, ValidationError> = {};
  for (const issue of issues.slice(0, MAX_ISSUES * 2)) {
    const id = issue.path.map(String).join('.');
    if (id in out) continue;
    // A key this page does not know (a newer server's) is shown as unknown, not as 'pattern'.
    const key = MESSAGE_KEY_SET.has(issue.message) ? (issue.message as MessageKey) : UNKNOWN_MESSAGE_KEY;
    const params =
      issue.params && typeof issue.params === 'object'
        ? (issue.params as Record<string, string | number>)
        : undefined;
    out[id] = params ? { key, params } : { key };
  }
  return out;
}
