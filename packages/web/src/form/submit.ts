import {
  type DeclarationKey,
  FORM_FIELDS,
  type FormValues,
  issuesToFieldErrors,
  type LegalChannel,
  personIdentity,
  refusalReasonSchema,
  SUBMIT_ERROR_CODES,
  type SubmitAnswer,
  type ValidateAnswer,
  type ValidationError,
} from '@ros/domain';
import { ApiRequestError, apiPost } from '../api/client';
import { type BotCheckSettings, getBotToken, resetBotCheck } from './botcheck';

/**
 * POST /api/ros/validate and POST /api/ros answer the API contract's shapes (@ros/domain):
 * SubmitAnswer holds the confirmation text, the PDF id and the reference number; `email` is
 * true after a NIA sign-in: the server sent the confirmation with the PDF by e-mail to the
 * entered address, and the browser downloads nothing (spec "After success").
 */
export type { SubmitAnswer, ValidateAnswer };

/**
 * What the applicant agreed to in the confirmation dialog (ConfirmDialog.tsx), sent with the
 * request (issue 22): the legal texts' version and channel, and the declarations ticked.
 */
export interface Agreement {
  version: string;
  channel: LegalChannel;
  ticked: Record<DeclarationKey, boolean>;
}

/** The identity-provider variant of the success screen: confirmation by e-mail, no download. */
export const isEmailConfirmation = (answer: SubmitAnswer): boolean => answer.email === true;

export interface Notifications {
  email: boolean;
  phone: boolean;
}

/**
 * The validate payload of spec section 3, taken from the form values, with the search answer's
 * `match` token when a search found the person (the server links the register person only by it).
 */
export function validatePayload(values: FormValues, duplicate: boolean, match?: string) {
  return {
    ...personIdentity(values),
    municipality: values.birth_municipality,
    duplicate,
    ...(match ? { match } : {}),
  };
}

/**
 * Asks the server whether the request date and duplicates are fine. The answer only changes the
 * confirmation dialog, so a failed call counts as "both fine" (spec: the dialog opens anyway).
 */
export async function validateRequest(
  values: FormValues,
  duplicate: boolean,
  match?: string,
): Promise<ValidateAnswer> {
  try {
    const a = await apiPost<Partial<ValidateAnswer>>('/validate', validatePayload(values, duplicate, match));
    const reason = refusalReasonSchema().safeParse(a?.reason);
    return {
      okDate: a?.okDate !== false,
      okDuplications: a?.okDuplications !== false,
      // Which rule applies (issue 28); an answer without a readable one keeps the general warning.
      ...(a?.okDate === false && reason.success ? { reason: reason.data } : {}),
    };
  } catch {
    return { okDate: true, okDuplications: true };
  }
}

/**
 * The submit body: the form values, the language, the mode, the notification choices, what the
 * applicant agreed to in the dialog (the legal texts' version and channel, the three declarations;
 * the server stores them and the PDF prints that version's texts) and the search's `match`.
 */
export function submitBody(
  values: FormValues,
  language: 'cs' | 'en',
  duplicate: boolean,
  notify: Notifications,
  agreement: Agreement,
  match?: string,
) {
  return {
    ...values,
    language,
    duplicate,
    legal_version: agreement.version,
    legal_channel: agreement.channel,
    declaration_signature: agreement.ticked.signature,
    declaration_affidavit: agreement.ticked.affidavit,
    declaration_purpose: agreement.ticked.purpose,
    ...(match ? { match } : {}),
    send_notifications_email: notify.email,
    // The phone notification needs a telephone number.
    send_notifications_phone: notify.phone && values.telephone.trim() !== '',
  };
}

/** A key that makes retries of one submission safe (the server answers the first result). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Sends the request with a fresh bot-check token (action SubmitFormAction). */
export async function submitRequest(
  body: ReturnType<typeof submitBody>,
  idempotencyKey: string,
  settings: BotCheckSettings,
): Promise<SubmitAnswer> {
  try {
    const token = await getBotToken('SubmitFormAction', settings);
    return await apiPost<SubmitAnswer>('', body, { Recaptcha: token, 'Idempotency-Key': idempotencyKey });
  } finally {
    // A token is accepted once: the widget gets ready for a retry.
    resetBotCheck();
  }
}

/** The server's error codes for a submit its rules rejected (the API contract, @ros/domain). */
export const SUBMIT_ERRORS = SUBMIT_ERROR_CODES;

const FIELD_NAMES: ReadonlySet<string> = new Set(FORM_FIELDS);
const ROW_FIELDS: ReadonlySet<string> = new Set(['past_activities', 'abroad_stay']);

/**
 * The path of the form control that shows an error the server reported at `path`
 * ('abroad_stay.0.state' stays; a list of codes is one control: 'other_citizenships.1' ->
 * 'other_citizenships'); null when the
 * path names no field of the form (the envelope's `language`, `duplicate`).
 */
export function controlPath(path: string): string | null {
  const [top = '', index, field] = path.split('.');
  if (!FIELD_NAMES.has(top)) return null;
  if (ROW_FIELDS.has(top) && index !== undefined && /^\d+$/.test(index) && field) {
    return `${top}.${index}.${field}`;
  }
  return top;
}

/**
 * The field errors of a 400 INVALID_FORM answer, keyed by control path, first error per control
 * (issuesToFieldErrors: a message key this page does not know becomes `unknown`, shown as VALIDATION.unknown). The server sends
 * `error.fields` as `[{ path, message }]` (message = the spec's message key); an object
 * `{ path: message }` is read too. Null for any other failure, or when no field of the form is named.
 */
export function invalidFormErrors(error: unknown): Record<string, ValidationError> | null {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return null;
  if (error.code !== SUBMIT_ERRORS.invalidForm) return null;
  const raw: unknown = error.fields;
  const list: unknown[] = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object'
      ? Object.entries(raw).map(([path, message]) => ({ path, message }))
      : [];
  const issues = list.flatMap((item) => {
    const { path, message } = (item ?? {}) as { path?: unknown; message?: unknown };
    const control = typeof path === 'string' ? controlPath(path) : null;
    return control ? [{ path: control.split('.'), message: typeof message === 'string' ? message : '' }] : [];
  });
  return issues.length > 0 ? issuesToFieldErrors(issues) : null;
}

/** A 400 TIME_NOT_COVERED: the server's clock found months of the last 60 not covered. */
export const isTimeNotCovered = (error: unknown): boolean =>
  error instanceof ApiRequestError && error.status === 400 && error.code === SUBMIT_ERRORS.timeNotCovered;

/**
 * A 400 NIA_IDENTITY_MISMATCH: after NIA sign-in the request's names or birth date are not the
 * signed-in person's (they are read-only in the form, so only a tampered or stale page gets here).
 */
export const isNiaMismatch = (error: unknown): boolean =>
  error instanceof ApiRequestError && error.status === 400 && error.code === SUBMIT_ERRORS.niaMismatch;

/** A 401 SESSION_EXPIRED: sent as through NIA, but the sign-in has ended (nothing stored). */
export const isSessionExpired = (error: unknown): boolean =>
  error instanceof ApiRequestError && error.status === 401 && error.code === SUBMIT_ERRORS.sessionExpired;

/** Where the PDF of a stored request downloads from. */
export const pdfPath = (id: string) => `/api/ros/pdf/${encodeURIComponent(id)}`;
