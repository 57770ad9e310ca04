// Calendar dates: "today", the dd.mm.yyyy date entry with partial input, ISO
// conversion, the real-calendar check and the birth-date range.

import { BIRTH_DATE_RANGE_YEARS } from './limits.js';
import type { MessageKey } from './messages.js';

/** A calendar date without time or zone. month 1-12, day 1-31. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/**
 * "Today" as the rules take it: a calendar date, or an instant (read in the service's
 * time zone, Europe/Prague). Omitted = now.
 */
export type Today = Date | CalendarDate;

/** The time zone the service's dates are in (a Czech service, whoever runs it where). */
export const SERVICE_TIME_ZONE = 'Europe/Prague';

const zoneFormatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: SERVICE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar date of an instant in Europe/Prague. */
export function calendarDateOf(instant: Date): CalendarDate {
  const parts = zoneFormatter.formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/** Resolves the `today` parameter of the rules (default: now, in Europe/Prague). */
export function resolveToday(today?: Today): CalendarDate {
  if (today === undefined) return calendarDateOf(new Date());
  if (today instanceof Date) return calendarDateOf(today);
  return { year: today.year, month: today.month, day: today.day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True for a real calendar date (31.02 is not, 29.02 only in leap years). Years 1-9999. */
export function isValidCalendarDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= 1 &&
    year <= 9999 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

const pad2 = (n: number) => String(n).padStart(2, '0');
const pad4 = (n: number) => String(n).padStart(4, '0');

/** `YYYY-MM-DD`. */
export function formatIsoDate(d: CalendarDate): string {
  return `${pad4(d.year)}-${pad2(d.month)}-${pad2(d.day)}`;
}

/** `dd.mm.yyyy`, day and month padded with zero. */
export function formatDisplayDate(d: CalendarDate): string {
  return `${pad2(d.day)}.${pad2(d.month)}.${pad4(d.year)}`;
}

/** Parses an ISO date `YYYY-MM-DD` (exactly) that exists in the calendar; null otherwise. */
export function parseIsoDate(s: string): CalendarDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  return isValidCalendarDate(d.year, d.month, d.day) ? d : null;
}

/**
 * Parses the date entry `dd.mm.yyyy` with partial input, as a person types it:
 * `d`, `d.m`, `d.m.yyyy` (one or two digits for day and month, a trailing dot and
 * spaces after the dots allowed: `1. 2. 2000`). Missing parts come from today: a day
 * alone means this month and year, day.month means this year. The year needs four
 * digits. Returns null for anything else or a date not in the calendar.
 */
export function parseDateInput(text: string, today?: Today): CalendarDate | null {
  const m = /^(\d{1,2})(?:\s*\.\s*(?:(\d{1,2})(?:\s*\.\s*(?:(\d{4}))?)?)?)?$/.exec(text.trim());
  if (!m) return null;
  const needsToday = m[2] === undefined || m[3] === undefined;
  const now = needsToday ? resolveToday(today) : undefined;
  const day = Number(m[1]);
  const month = m[2] === undefined ? (now?.month ?? 0) : Number(m[2]);
  const year = m[3] === undefined ? (now?.year ?? 0) : Number(m[3]);
  return isValidCalendarDate(year, month, day) ? { year, month, day } : null;
}

/** Completes a date entry to `dd.mm.yyyy`; null when it is not a date. */
export function completeDateInput(text: string, today?: Today): string | null {
  const d = parseDateInput(text, today);
  return d ? formatDisplayDate(d) : null;
}

/** dd.mm.yyyy (or partial) -> ISO `YYYY-MM-DD`; null when it is not a date. */
export function displayToIso(text: string, today?: Today): string | null {
  const d = parseDateInput(text, today);
  return d ? formatIsoDate(d) : null;
}

/** ISO `YYYY-MM-DD` -> `dd.mm.yyyy`; null when it is not a date. */
export function isoToDisplay(iso: string): string | null {
  const d = parseIsoDate(iso);
  return d ? formatDisplayDate(d) : null;
}

/**
 * An ISO date `YYYY-MM-DD` moved by whole days (negative: earlier), across months, years and
 * 29 February. The calendar alone: no time zone, no daylight-saving hour.
 */
export function addDays(iso: string, days: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m || !Number.isInteger(days))
    throw new RangeError(`addDays: not a date and whole days: ${iso}, ${days}`);
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  return formatIsoDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

/** The same calendar day `years` years earlier; 29.02 becomes 28.02 in a common year. */
export function subtractYears(d: CalendarDate, years: number): CalendarDate {
  const year = d.year - years;
  return { year, month: d.month, day: Math.min(d.day, daysInMonth(year, d.month)) };
}

/** The earliest and latest accepted birth date: 100 years ago (inclusive) up to today (inclusive). */
export function birthDateRange(today?: Today): { min: CalendarDate; max: CalendarDate } {
  const max = resolveToday(today);
  return { min: subtractYears(max, BIRTH_DATE_RANGE_YEARS), max };
}

export function isBirthDateInRange(d: CalendarDate, today?: Today): boolean {
  const { min, max } = birthDateRange(today);
  return compareDates(d, min) >= 0 && compareDates(d, max) <= 0;
}

/**
 * The error of a birth_date value (ISO `YYYY-MM-DD`): `required` when empty,
 * `pattern` when it is not a date or lies outside the last 100 years up to today
 * (the spec names no key for the range), null when valid.
 */
export function birthDateError(value: string, today?: Today): MessageKey | null {
  if (value.trim() === '') return 'required';
  const d = parseIsoDate(value.trim());
  if (!d) return 'pattern';
  return isBirthDateInRange(d, today) ? null : 'pattern';
}
