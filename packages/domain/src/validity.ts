import type { z } from 'zod';
import type { validityAnswerSchema } from './register.js';
/**
 * The validity check of a certificate (spec sections 2 "Validity-check screen", 3 "Validity record",
 * 4 "Validity screen" and 7 `GET /api/ros/{id}/validity`).
 *
 * A check link carries `id={recordId}x{code}`: the certificate's number and a secret code, the day of
 * month + month + year of the certificate's `platnost_do`, added as numbers (31.12.2026 -> 2069).
 */

/** Longest accepted part of a check id, in digits. Record ids and codes are far shorter. */
export const VALIDITY_ID_MAX_DIGITS = 18;

export interface ValidityId {
  /** Canonical decimal form: ASCII digits, no leading zeros ('0' for zero). */
  recordId: string;
  /** Canonical decimal form: ASCII digits, no leading zeros ('0' for zero). */
  code: string;
}

const ID_PATTERN = new RegExp(`^([0-9]{1,${VALIDITY_ID_MAX_DIGITS}})x([0-9]{1,${VALIDITY_ID_MAX_DIGITS}})$`);

function canonical(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return i === 0 ? digits : digits.slice(i);
}

/**
 * Splits a check id into record id and code. Valid: exactly two parts of ASCII digits 0-9 split on
 * a lower-case 'x', each 1 to 18 digits long. Anything else (signs, exponents, spaces, other digit
 * scripts such as '١', a third part, an empty part) gives null.
 *
 * Leading zeros are accepted and dropped ('007x02069' is record 7, code 2069): the code is a sum of
 * numbers, and a printed or hand-typed link that pads numbers still names the same certificate.
 * Both parts are returned in canonical form, so equal numbers compare equal as strings.
 */
export function parseValidityId(s: string | null | undefined): ValidityId | null {
  if (typeof s !== 'string' || s.length > VALIDITY_ID_MAX_DIGITS * 2 + 1) return null;
  const m = ID_PATTERN.exec(s);
  if (!m || m[1] === undefined || m[2] === undefined) return null;
  return { recordId: canonical(m[1]), code: canonical(m[2]) };
}

/** The calendar date as day, month, year, or null when the text is not a real date. */
function parseDate(text: string): { day: number; month: number; year: number } | null {
  let day: number;
  let month: number;
  let year: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const cz = iso ? null : /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})$/.exec(text);
  if (iso) {
    year = Number(iso[1]);
    month = Number(iso[2]);
    day = Number(iso[3]);
  } else if (cz) {
    day = Number(cz[1]);
    month = Number(cz[2]);
    year = Number(cz[3]);
  } else {
    return null;
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { day, month, year };
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one (UTC: no time-zone shifts).
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The secret code of a validity date: day of month + month (1-12) + year, added as numbers.
 * Accepts 'dd.mm.yyyy' (the answer's format) or 'YYYY-MM-DD' (the storage format).
 * Null when the text is not a real date.
 */
export function validityCode(platnostDo: string): number | null {
  const d = parseDate(platnostDo);
  return d ? d.day + d.month + d.year : null;
}

/** 'YYYY-MM-DD' or 'dd.mm.yyyy' -> 'dd.mm.yyyy' (two-digit day and month); null when not a date. */
export function toValidityDisplayDate(date: string): string | null {
  const d = parseDate(date);
  if (!d) return null;
  return `${String(d.day).padStart(2, '0')}.${String(d.month).padStart(2, '0')}.${String(d.year).padStart(4, '0')}`;
}

/** 'dd.mm.yyyy' or 'YYYY-MM-DD' -> 'YYYY-MM-DD'; null when not a date. */
export function toValidityIsoDate(date: string): string | null {
  const d = parseDate(date);
  if (!d) return null;
  return `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** Letters of a name the check answer reveals: the first three (the page adds the ellipsis). */
export const VALIDITY_NAME_LETTERS = 3;

/**
 * The first three letters of a name, counted as user-perceived characters after NFC normalisation,
 * so 'Šťastná' gives 'Šťa' even when stored with combining marks.
 */
export function shortValidityName(name: string): string {
  const s = name.trim().normalize('NFC');
  let out = '';
  let n = 0;
  for (const ch of s) {
    // A combining mark left after NFC belongs to the letter before it.
    if (n >= VALIDITY_NAME_LETTERS && !/\p{M}/u.test(ch)) break;
    if (!/\p{M}/u.test(ch)) n++;
    out += ch;
  }
  return out;
}

const CZECH_DATE = /^\d{2}\.\d{2}\.\d{4}$/;

/**
 * The answer of `GET /api/ros/{id}/validity` (spec sections 3 and 7), from the API contract
 * (register.ts; a type-only import, so the check page loads no schema library).
 * - data.stav: 'Ano' = the certificate is valid today; 'Ne' = revoked or expired.
 * - data.platnost_do: the validity date, 'dd.mm.yyyy'.
 * - data.jmeno, data.prijmeni: first three letters of the first and last name (see shortValidityName).
 * - a1a3, a2: present only when the certificate is valid and holds that category, with the
 *   category's own valid-until date ('dd.mm.yyyy'); absent otherwise.
 */
export type ValidityAnswer = z.infer<typeof validityAnswerSchema>;
export type ValidityStav = ValidityAnswer['data']['stav'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasOnlyKeys(o: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(o).every((k) => keys.includes(k));
}

function category(v: unknown): { valid_until: string } | null {
  if (!isObject(v) || !hasOnlyKeys(v, ['valid_until'])) return null;
  return typeof v.valid_until === 'string' && CZECH_DATE.test(v.valid_until)
    ? { valid_until: v.valid_until }
    : null;
}

/**
 * The answer in exactly the spec's shape, or null for anything else (missing or extra fields, a
 * stav other than 'Ano'/'Ne', dates not 'dd.mm.yyyy'). Hand-written rather than a zod schema so the
 * check page, opened from QR codes on phones, loads no schema library.
 */
export function parseValidityAnswer(raw: unknown): ValidityAnswer | null {
  if (!isObject(raw) || !hasOnlyKeys(raw, ['data', 'a1a3', 'a2'])) return null;
  const d = raw.data;
  if (!isObject(d) || !hasOnlyKeys(d, ['stav', 'platnost_do', 'jmeno', 'prijmeni'])) return null;
  if (d.stav !== 'Ano' && d.stav !== 'Ne') return null;
  if (typeof d.platnost_do !== 'string' || !CZECH_DATE.test(d.platnost_do)) return null;
  if (typeof d.jmeno !== 'string' || typeof d.prijmeni !== 'string') return null;
  const answer: ValidityAnswer = {
    data: { stav: d.stav, platnost_do: d.platnost_do, jmeno: d.jmeno, prijmeni: d.prijmeni },
  };
  for (const key of ['a1a3', 'a2'] as const) {
    if (raw[key] === undefined) continue;
    const c = category(raw[key]);
    if (!c) return null;
    answer[key] = c;
  }
  return answer;
}

/**
 * Whether the code of a check link matches the answer's validity date (spec section 4). `code` may
 * carry leading zeros. When it does not match, the page treats the record as empty: not verified.
 */
export function validityCodeMatches(answer: Pick<ValidityAnswer, 'data'>, code: string): boolean {
  const expected = validityCode(answer.data.platnost_do);
  if (expected === null || !/^[0-9]+$/.test(code)) return false;
  return canonical(code) === String(expected);
}

/** The page's verdict: verified when the code matches the validity date and stav is 'Ano'. */
export function isVerified(answer: ValidityAnswer | null | undefined, code: string): boolean {
  if (!answer) return false;
  return validityCodeMatches(answer, code) && answer.data.stav === 'Ano';
}

/** The relative link that opens the check page for a certificate (used in QR codes and the docs). */
export function validityCheckPath(recordId: number | string, platnostDo: string): string {
  const code = validityCode(platnostDo);
  if (code === null) throw new Error('validityCheckPath: platnost_do is not a date');
  return `/check?id=${recordId}x${code}`;
}

/**
 * What `/check` shows for its `id` query parameter (issue 36): no `id` at all is the form where a
 * certificate can be typed; a well-formed id is the check; anything else is not found (the server
 * answers such a page 404, routes/web.ts, and the browser shows its not-found page).
 */
export function checkPageTarget(id: string | null): 'form' | 'not-found' | ValidityId {
  if (id === null) return 'form';
  return parseValidityId(id) ?? 'not-found';
}

/**
 * The check id of a certificate as a person types it from the paper (issue 36): its number and
 * its validity date (`dd.mm.yyyy` or `YYYY-MM-DD`), or the whole id printed under the QR code
 * (`990000001x2070`) in the number field with the date left empty. Spaces are ignored. The result
 * passes the same rule as a link's id (parseValidityId); null when it cannot be a certificate.
 */
export function typedValidityId(number: string, validUntil: string): ValidityId | null {
  const n = number.replace(/\s/g, '');
  if (n.length > VALIDITY_ID_MAX_DIGITS * 2 + 1) return null;
  if (n.includes('x')) return validUntil.trim() === '' ? parseValidityId(n) : null;
  const code = validityCode(validUntil.replace(/\s/g, ''));
  return code === null ? null : parseValidityId(`${n}x${code}`);
}
