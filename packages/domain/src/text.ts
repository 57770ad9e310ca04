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

// The text policy (issues 11, 21 and 33): one rule for every text the portal stores, in the
// browser and on the server, from the public form and from the authority's side alike (intake API
// with its status notes, file imports), so that both databases store the same thing (PostgreSQL
// refuses a NUL in text, SQLite would store it), no text can hide or reorder what a reader of the
// request sees, and the signed paper shows what was stored: only characters the PDF's font prints.

import { PRINTABLE_RANGES } from './printable.js';

/** The most line breaks one text may hold (a multi-line text; issue 33 item 9: no free pages in the PDF). */
export const MAX_TEXT_LINES = 20;
/** The most combining marks stacked on one letter (Vietnamese needs 2; "Zalgo" text hundreds). */
export const MAX_COMBINING_MARKS = 4;

/** Control characters (C0, DEL, C1). A multi-line text may hold tabs and line breaks. */
const CONTROL = /\p{Cc}/u;
const CONTROL_MULTILINE = /[^\P{Cc}\t\n\r]/u;
/** Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
/** A UTF-16 surrogate without its pair (in a `u` regex a pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;
/** Invisible characters: RLM, LRM, ALM, zero-width space and joiners, soft hyphen, BOM, variation selectors … */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const STACKED_MARKS = new RegExp(`\\p{M}{${MAX_COMBINING_MARKS + 1}}`, 'u');
const LINE_BREAK = /\r\n|\r|\n/g;

/** The font's code points (printable.ts, from DejaVu Sans's cmap), sorted [first, last] pairs. */
const PRINTABLE: ReadonlyArray<readonly [number, number]> = PRINTABLE_RANGES.split(' ').map((r) => {
  const [a = '', b = a] = r.split('-');
  return [Number.parseInt(a, 16), Number.parseInt(b, 16)] as const;
});

/** True when the PDF's font has a glyph for the code point. */
export function isPrintable(cp: number): boolean {
  let lo = 0;
  let hi = PRINTABLE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = PRINTABLE[mid] as readonly [number, number];
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

export type TextPolicyKey = 'invalidCharacters' | 'tooManyLines' | 'unprintableCharacters';

/** A refusal: its message key and, for the UI's text, the first unprintable character or the line limit. */
export interface TextPolicyIssue {
  key: TextPolicyKey;
  params?: { char: string; code: string } | { max: number };
}

/** 'U+4E2D' */
const codeOf = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The text policy over a text (outer white space aside):
 * - `invalidCharacters`: a control character (tabs and line breaks are allowed in a multi-line
 *   text), a lone surrogate, a bidirectional override/isolate, an invisible character
 *   (Default_Ignorable_Code_Point: RLM, ALM, zero-width …) or more than MAX_COMBINING_MARKS
 *   combining marks on one letter;
 * - `tooManyLines`: more than MAX_TEXT_LINES line breaks;
 * - `unprintableCharacters`: a character the PDF's font has no glyph for (CJK, for one), named
 *   in `params` (the first one).
 * Else null. Accepted text is stored NFC-normalised (see normalizeFormValues).
 */
export function textPolicyIssue(value: string, opts: { multiline?: boolean } = {}): TextPolicyIssue | null {
  const t = value.trim();
  if ((opts.multiline ? CONTROL_MULTILINE : CONTROL).test(t)) return { key: 'invalidCharacters' };
  if (BIDI_CONTROL.test(t) || LONE_SURROGATE.test(t) || INVISIBLE.test(t))
    return { key: 'invalidCharacters' };
  if (STACKED_MARKS.test(t.normalize('NFD'))) return { key: 'invalidCharacters' };
  if ((t.match(LINE_BREAK)?.length ?? 0) > MAX_TEXT_LINES)
    return { key: 'tooManyLines', params: { max: MAX_TEXT_LINES } };
  for (const char of t.normalize('NFC')) {
    const cp = char.codePointAt(0) as number;
    if (cp === 0x09 || cp === 0x0a || cp === 0x0d || isPrintable(cp)) continue;
    return { key: 'unprintableCharacters', params: { char, code: codeOf(cp) } };
  }
  return null;
}

/** The message key of textPolicyIssue, or null. */
export function textPolicyError(value: string, opts: { multiline?: boolean } = {}): TextPolicyKey | null {
  return textPolicyIssue(value, opts)?.key ?? null;
}

/** The policy's refusal in words, for the operators' interfaces (intake API, file imports), which answer in English. */
export const TEXT_POLICY_MESSAGE =
  'must not hold control characters (line breaks only where text may span lines, at most 20), lone surrogates, bidirectional controls, invisible characters, more than 4 stacked combining marks or characters the PDF font cannot print';

/** One refusal in words (English, for the operators): names the unprintable character. */
export function textPolicyMessage(issue: TextPolicyIssue): string {
  if (issue.key === 'tooManyLines') return `must not hold more than ${MAX_TEXT_LINES} line breaks`;
  if (issue.key === 'unprintableCharacters' && issue.params && 'code' in issue.params)
    return `holds ${issue.params.code}, a character the PDF font cannot print`;
  return 'must not hold control characters (line breaks only where text may span lines), lone surrogates, bidirectional controls, invisible characters or more than 4 stacked combining marks';
}

/** True when a text passes the policy (textPolicyError). */
export function followsTextPolicy(value: string, opts: { multiline?: boolean } = {}): boolean {
  return textPolicyError(value, opts) === null;
}

/** NFC normalisation of a text that passed the policy (composed letters: 'c' + U+030C -> 'č'). */
export function normalizeText(value: string): string {
  return value.normalize('NFC');
}
