// The validation message keys of spec section 5. They are the zod issue messages; the
// texts live in the web app's translation files.

export const MESSAGE_KEYS = [
  'birthNumberInvalidDay',
  'birthNumberInvalidFormat',
  'birthNumberInvalidMonth',
  'birthNumberInvalidYear',
  'dataMailboxAlphanumeric',
  'dataMailboxLength',
  'email',
  'fromToDate',
  // Not in spec section 5: the text policy of issue 11 (text.ts, textPolicyError).
  'invalidCharacters',
  'maxlength',
  'monthDateFarFutureDate',
  'monthDateFutureDate',
  'monthDateInvalidMonth',
  'monthDateInvalidPattern',
  'monthDateInvalidYear',
  'pattern',
  'phoneInvalidLength',
  'phoneInvalidPattern',
  'required',
] as const;

export type MessageKey = (typeof MESSAGE_KEYS)[number];

const KEY_SET: ReadonlySet<string> = new Set(MESSAGE_KEYS);

/** True when `key` is one of the spec's message keys (the UI shows a generic text otherwise). */
export function isMessageKey(key: string): key is MessageKey {
  return KEY_SET.has(key);
}

/** A validation failure: its message key and the values for the text's placeholders. */
export interface ValidationError {
  key: MessageKey;
  params?: Record<string, string | number>;
}
