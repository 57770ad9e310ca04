// The Czech birth number (rodné číslo): YYMMDD[/]XXX(X).

import type { CalendarDate } from './dates.js';
import type { MessageKey } from './messages.js';

/** Month offsets: +50 for women; +20 and +70 (men, women) since 2004 when a day's numbers run out. */
export const BIRTH_NUMBER_MONTH_OFFSETS = [0, 20, 50, 70] as const;

/** Removes spaces and the slash: '855101 / 1234' -> '8551011234'. */
export function normalizeBirthNumber(s: string): string {
  return s.replace(/[\s/]+/gu, '');
}

/** Writes the normalised number with its slash: '8551011234' -> '855101/1234'. */
export function formatBirthNumber(s: string): string {
  const n = normalizeBirthNumber(s);
  return n.length > 6 ? `${n.slice(0, 6)}/${n.slice(6)}` : n;
}

export interface BirthNumberParts {
  /** Two-digit year. */
  yy: number;
  /** The month as written, offset included (1-12, 21-32, 51-62, 71-82). */
  mm: number;
  /** The month without its offset (1-12). */
  month: number;
  day: number;
  /** The 3 or 4 digits after the date (3 only for births before 1954). */
  suffix: string;
}

/**
 * Parses a birth number. Accepts spaces around the parts and an optional slash:
 * six digits (year; month 01-12 or with +20, +50 or +70; day 01-31), then 3-4 digits.
 * null when the format is wrong.
 */
export function parseBirthNumber(s: string): BirthNumberParts | null {
  const m = /^(\d{2})(\d{2})(\d{2})\s*\/?\s*(\d{3,4})$/.exec(s.trim());
  if (!m) return null;
  const yy = Number(m[1]);
  const mm = Number(m[2]);
  const day = Number(m[3]);
  const offset = BIRTH_NUMBER_MONTH_OFFSETS.find((o) => mm - o >= 1 && mm - o <= 12);
  if (offset === undefined || day < 1 || day > 31) return null;
  return { yy, mm, month: mm - offset, day, suffix: m[4] ?? '' };
}

/** birthNumberInvalidFormat when the format is wrong, null when right. */
export function birthNumberFormatError(s: string): MessageKey | null {
  return parseBirthNumber(s) ? null : 'birthNumberInvalidFormat';
}

/**
 * Where a well-formed birth number disagrees with the birth date, in the spec's order:
 * day, month (month, +20, +50 or +70), year (last two digits). Empty when they agree
 * or the number is not well formed.
 */
export function birthNumberDateErrors(s: string, birthDate: CalendarDate): MessageKey[] {
  const p = parseBirthNumber(s);
  if (!p) return [];
  const errors: MessageKey[] = [];
  if (p.day !== birthDate.day) errors.push('birthNumberInvalidDay');
  if (p.month !== birthDate.month) errors.push('birthNumberInvalidMonth');
  if (p.yy !== birthDate.year % 100) errors.push('birthNumberInvalidYear');
  return errors;
}

/**
 * The first error of a birth number: its format, then its agreement with the birth date
 * when one is given. null when valid. (Whether it is required is decided elsewhere.)
 */
export function birthNumberError(s: string, birthDate?: CalendarDate | null): MessageKey | null {
  const format = birthNumberFormatError(s);
  if (format) return format;
  if (!birthDate) return null;
  return birthNumberDateErrors(s, birthDate)[0] ?? null;
}

/**
 * The mod-11 checksum of 10-digit numbers (numbers issued since 1954): the whole number
 * is divisible by 11, or the first nine digits leave 10 and the check digit is 0.
 * NOT a validation rule: the spec does not have it and real numbers from 1954-1985
 * fail it. 9-digit numbers have no checksum (true).
 */
export function hasValidBirthNumberChecksum(s: string): boolean {
  const n = normalizeBirthNumber(s);
  if (/^\d{9}$/.test(n)) return true;
  if (!/^\d{10}$/.test(n)) return false;
  const rest = Number(n.slice(0, 9)) % 11;
  const check = Number(n.slice(9));
  return rest === 10 ? check === 0 : rest === check;
}
