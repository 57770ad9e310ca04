import type { FormValues } from '@ros/domain';
import { apiPost } from '../api/client';
import type { BotCheckSettings } from './botcheck';

/** What POST /api/ros/validate answers (spec section 7). */
export interface ValidateAnswer {
  okDate: boolean;
  okDuplications: boolean;
}

/** What POST /api/ros answers: the confirmation text, the PDF id and the reference number. */
export interface SubmitAnswer {
  text: string;
  id: string;
  reference?: string;
}

export interface Notifications {
  email: boolean;
  phone: boolean;
}

/** The validate payload of spec section 3, taken from the form values. */
export function validatePayload(values: FormValues, duplicate: boolean) {
  return {
    first_name: values.first_name,
    last_name: values.last_name,
    birth_date: values.birth_date,
    municipality: values.birth_municipality,
    aifo: values.aifo,
    document_number: values.document_number,
    birth_number: values.birth_number,
    duplicate,
  };
}

/**
 * Asks the server whether the request date and duplicates are fine. The answer only changes the
 * confirmation dialog, so a failed call counts as "both fine" (spec: the dialog opens anyway).
 */
export async function validateRequest(values: FormValues, duplicate: boolean): Promise<ValidateAnswer> {
  try {
    const a = await apiPost<Partial<ValidateAnswer>>('/validate', validatePayload(values, duplicate));
    return { okDate: a?.okDate !== false, okDuplications: a?.okDuplications !== false };
  } catch {
    return { okDate: true, okDuplications: true };
  }
}

/** The submit body: the form values, the language, the mode and the notification choices. */
export function submitBody(
  values: FormValues,
  language: 'cs' | 'en',
  duplicate: boolean,
  notify: Notifications,
) {
  return {
    ...values,
    language,
    duplicate,
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
  // Loaded on demand: the bot-check module pulls in the widget's code.
  const { getBotToken, resetBotCheck } = await import('./botcheck');
  try {
    const token = await getBotToken('SubmitFormAction', settings);
    return await apiPost<SubmitAnswer>('', body, { Recaptcha: token, 'Idempotency-Key': idempotencyKey });
  } finally {
    // A token is accepted once: the widget gets ready for a retry.
    resetBotCheck();
  }
}

/** Where the PDF of a stored request downloads from. */
export const pdfPath = (id: string) => `/api/ros/pdf/${encodeURIComponent(id)}`;
