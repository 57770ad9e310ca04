// Text normalisation shared by the server's person search and the form.

/**
 * Normalises a personal name for comparison: trims, lower-cases, strips diacritics
 * (NFD decomposition, combining marks removed) and collapses inner whitespace.
 * 'Šťastná  Nováková ' -> 'stastna novakova'.
 */
export function normalizeName(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('cs').replace(/\s+/gu, ' ').trim();
}

/** Normalises a document number for comparison: removes all whitespace, upper-cases. */
export function normalizeDocumentNumber(s: string): string {
  return s.replace(/\s+/gu, '').toUpperCase();
}

/** Trims and collapses inner whitespace without changing case or diacritics. */
export function collapseSpaces(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

// The text policy (issues 11 and 21): one rule for every text the portal stores, in the browser
// and on the server, from the public form and from the authority's side alike (intake API, file
// imports), so that both databases store the same thing (PostgreSQL refuses a NUL in text,
// SQLite would store it) and no text can hide or reorder what a reader of the request sees.

/** Control characters (C0, DEL, C1). A multi-line text may hold tabs and line breaks. */
const CONTROL = /\p{Cc}/u;
const CONTROL_MULTILINE = /[^\P{Cc}\t\n\r]/u;
/** Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
/** A UTF-16 surrogate without its pair (in a `u` regex a pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * `invalidCharacters` when a text (outer white space aside) holds a control character (tabs and
 * line breaks are allowed in a multi-line text), a lone surrogate or a bidirectional
 * override/isolate; else null. Accepted text is stored NFC-normalised (see normalizeFormValues).
 */
export function textPolicyError(
  value: string,
  opts: { multiline?: boolean } = {},
): 'invalidCharacters' | null {
  const t = value.trim();
  if ((opts.multiline ? CONTROL_MULTILINE : CONTROL).test(t)) return 'invalidCharacters';
  if (BIDI_CONTROL.test(t) || LONE_SURROGATE.test(t)) return 'invalidCharacters';
  return null;
}

/** The policy's refusal in words, for the operators' interfaces (intake API, file imports), which answer in English. */
export const TEXT_POLICY_MESSAGE =
  'must not hold control characters (line breaks only where text may span lines), lone surrogates or bidirectional controls';

/** True when a text passes the policy (textPolicyError). */
export function followsTextPolicy(value: string, opts: { multiline?: boolean } = {}): boolean {
  return textPolicyError(value, opts) === null;
}

/** NFC normalisation of a text that passed the policy (composed letters: 'c' + U+030C -> 'č'). */
export function normalizeText(value: string): string {
  return value.normalize('NFC');
}
