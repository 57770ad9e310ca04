// Calendar dates: "today", the dd.mm.yyyy date entry (a day or month of one digit is padded; a
// date missing its month or year is incomplete, never completed: issue 22), ISO conversion, the
// real-calendar check and the birth-date range.

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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** 01:00 UTC on the last Sunday of a month (0-based) of a year: when EU summer time starts or ends. */
function lastSunday0100Utc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0, 1));
  return lastDay.getTime() - lastDay.getUTCDay() * DAY_MS;
}

/** The years the summer-time rule below is Prague's (the EU's since 1996; a test holds it to ICU). */
const EU_RULE_FROM = 1996;

let zoneFormatter: Intl.DateTimeFormat | undefined;

/**
 * The calendar date of an instant in Europe/Prague. From 1996 on it is counted, not asked of
 * Intl: Central European Time (UTC+1), summer time (UTC+2) from 01:00 UTC on the last Sunday of
 * March to 01:00 UTC on the last Sunday of October (the EU's rule, Directive 2000/84/EC; Czech
 * law since 1996). The first `Intl.DateTimeFormat` with a time zone costs a phone tens of
 * milliseconds of the page's load (the time-zone data; issue 37), and every page that checks a
 * date asks "today" while it loads. `dates.test.ts` holds the count to ICU's Europe/Prague over
 * every change of offset from 1996 to 2040, so a change of the rule fails a test; an instant
 * before 1996 asks Intl.
 */
export function calendarDateOf(instant: Date): CalendarDate {
  const year = instant.getUTCFullYear();
  if (year < EU_RULE_FROM) return intlCalendarDateOf(instant);
  const t = instant.getTime();
  const summer = t >= lastSunday0100Utc(year, 2) && t < lastSunday0100Utc(year, 9);
  const local = new Date(t + (summer ? 2 : 1) * HOUR_MS);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

/** The calendar date of an instant in Europe/Prague, as ICU's time-zone data has it. */
export function intlCalendarDateOf(instant: Date): CalendarDate {
  zoneFormatter ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: SERVICE_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
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
 * An ISO date (`2026-03-01`, the start of that day in UTC) or time (`2026-03-01T08:28`,
 * `…:00`, `…:00.000`, then `Z` or an offset up to ±14:00) as an instant in `toISOString` form;
 * null unless every part exists: 2026-02-30, hour 24, minute 60 or offset +15:00 are refused
 * (Date.parse would roll 2026-02-30 over to 2 March). For the operators' `since`/`until`.
 */
export function parseIsoInstant(s: string): string | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-](\d{2}):(\d{2})))?$/.exec(
      s,
    );
  if (!m || !isValidCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return null;
  const n = (i: number) => Number(m[i] ?? 0);
  const [hour, minute, second, offH, offM] = [n(4), n(5), n(6), n(8), n(9)];
  if (hour > 23 || minute > 59 || second > 59 || offH > 14 || offM > 59 || (offH === 14 && offM > 0))
    return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * Parses the date entry `dd.mm.yyyy` as a person types it: one or two digits for the day and the
 * month (`5.7.1990`), spaces after the dots (`1. 2. 2000`), a trailing dot. All three parts must
 * be there, the year with four digits: a date field does not guess a month or a year the person
 * never typed (issue 22: "5" was completed to the 5th of this month, a birth date nobody has).
 * Returns null for anything else or a date not in the calendar.
 */
export function parseDateInput(text: string): CalendarDate | null {
  const m = /^(\d{1,2})\s*\.\s*(\d{1,2})\s*\.\s*(\d{4})\s*\.?$/.exec(text.trim());
  if (!m) return null;
  const d = { day: Number(m[1]), month: Number(m[2]), year: Number(m[3]) };
  return isValidCalendarDate(d.year, d.month, d.day) ? d : null;
}

/**
 * True for the start of a date that lacks its month or year, or the year's four digits: `5`,
 * `5.`, `5.7`, `5.7.`, `5.7.19` (the rule then says the date is incomplete, not "wrong format").
 */
export function isIncompleteDateInput(text: string): boolean {
  return /^\d{1,2}(\s*\.\s*(\d{1,2}(\s*\.\s*\d{0,3})?)?)?$/.test(text.trim());
}

/** Writes a date entry as `dd.mm.yyyy` (day and month padded); null when it is not a whole date. */
export function completeDateInput(text: string): string | null {
  const d = parseDateInput(text);
  return d ? formatDisplayDate(d) : null;
}

/** dd.mm.yyyy (day and month may have one digit) -> ISO `YYYY-MM-DD`; null when it is not a date. */
export function displayToIso(text: string): string | null {
  const d = parseDateInput(text);
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
 * The error of a birth_date value (ISO `YYYY-MM-DD`, or the text as typed while it is not a
 * date): `required` when empty; `dateIncomplete` for a day without its month or year
 * (isIncompleteDateInput); `pattern` for anything else that is not a date; `birthDateFuture`
 * after today, `birthDateTooOld` more than 100 years ago (spec section 9's range; the spec names
 * no key for it, and "wrong format" would not tell the person what is wrong); null when valid.
 */
export function birthDateError(value: string, today?: Today): MessageKey | null {
  const v = value.trim();
  if (v === '') return 'required';
  const d = parseIsoDate(v);
  if (!d) return isIncompleteDateInput(v) ? 'dateIncomplete' : 'pattern';
  const { min, max } = birthDateRange(today);
  if (compareDates(d, max) > 0) return 'birthDateFuture';
  if (compareDates(d, min) < 0) return 'birthDateTooOld';
  return null;
}
