// The validation message keys of spec section 5. They are the zod issue messages; the
// texts live in the web app's translation files.

export const MESSAGE_KEYS = [
  // Not in spec section 5: the birth date's range (spec section 9) and an incomplete date (issue 22).
  'birthDateFuture',
  'birthDateTooOld',
  'birthNumberInvalidDay',
  'birthNumberInvalidFormat',
  'birthNumberInvalidMonth',
  'birthNumberInvalidYear',
  'dataMailboxAlphanumeric',
  'dataMailboxLength',
  'dateIncomplete',
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
  // Not in spec section 5: the text policy of issue 33 item 9 (text.ts).
  'tooManyLines',
  'unprintableCharacters',
] as const;

export type MessageKey = (typeof MESSAGE_KEYS)[number];

const KEY_SET: ReadonlySet<string> = new Set(MESSAGE_KEYS);

/** True when `key` is one of the spec's message keys (the UI shows a generic text otherwise). */
export function isMessageKey(key: string): key is MessageKey {
  return KEY_SET.has(key);
}

/**
 * What a field shows for a message key it does not know (an answer of a newer server): the spec's
 * unknown-validation-error text (section 5), never a guess such as "wrong format".
 */
export const UNKNOWN_MESSAGE_KEY = 'unknown';

/** A validation failure: its message key and the values for the text's placeholders. */
export interface ValidationError {
  key: MessageKey | typeof UNKNOWN_MESSAGE_KEY;
  params?: Record<string, string | number>;
}

/** A failing field as an answer names it: its dotted path ('past_activities.0.from') and a message. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** The most problems one answer lists (a hostile body could otherwise fail thousands of fields). */
export const MAX_FIELD_PROBLEMS = 20;

/** What issuesToProblems reads of a zod issue. */
export interface IssueLike {
  readonly code?: string;
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
  /** The keys of an `unrecognized_keys` issue. */
  readonly keys?: readonly string[];
  readonly input?: unknown;
}

/**
 * Zod issues as `{ path, message }`, the one mapping of every answer that lists failing fields
 * (the API's 400 `fields`, the intake API's problems, the import's lines). At most `max`.
 * Unknown keys have no path of their own: the path names them (up to five), the message is
 * `unrecognized`. With `messageKeys`, every message is one of the spec's message keys: one
 * that is not (zod's own English) becomes `maxlength` for a too long value, `required` for an
 * absent one, else `pattern`.
 */
export function issuesToProblems(
  issues: ReadonlyArray<IssueLike>,
  options: { max?: number; messageKeys?: boolean } = {},
): FieldProblem[] {
  const { max = MAX_FIELD_PROBLEMS, messageKeys = false } = options;
  return issues.slice(0, Math.max(0, max)).map((issue) => {
    const unknownKeys = issue.code === 'unrecognized_keys';
    const path =
      issue.path.map(String).join('.') || (unknownKeys ? (issue.keys ?? []).slice(0, 5).join(',') : '');
    if (unknownKeys) return { path, message: 'unrecognized' };
    const message = !messageKeys || isMessageKey(issue.message) ? issue.message : messageKeyOf(issue);
    return { path, message };
  });
}

/** The message key for a zod issue whose message is zod's own text (issuesToProblems). */
function messageKeyOf(issue: IssueLike): MessageKey {
  if (issue.code === 'too_big') return 'maxlength';
  return issue.input === undefined && issue.code !== 'too_small' ? 'required' : 'pattern';
}
