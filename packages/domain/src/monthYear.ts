// Month/year fields (MM/YYYY): employer_current_from and the past-activity from/to.

import { resolveToday, type Today } from './dates.js';
import { EMPLOYER_START_MAX_MONTHS_AHEAD, MIN_MONTH_YEAR } from './limits.js';
import type { MessageKey } from './messages.js';

/** A calendar month. month 1-12. */
export interface MonthYear {
  year: number;
  month: number;
}

/** Months since year 0: makes months comparable and easy to step. */
export function monthIndex(m: MonthYear): number {
  return m.year * 12 + (m.month - 1);
}

export function fromMonthIndex(index: number): MonthYear {
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** Adds (or with a negative n subtracts) months. */
export function addMonths(m: MonthYear, n: number): MonthYear {
  return fromMonthIndex(monthIndex(m) + n);
}

export function compareMonths(a: MonthYear, b: MonthYear): number {
  return monthIndex(a) - monthIndex(b);
}

/** The current month. */
export function currentMonth(today?: Today): MonthYear {
  const d = resolveToday(today);
  return { year: d.year, month: d.month };
}

/** `MM/YYYY`. */
export function formatMonthYear(m: MonthYear): string {
  return `${String(m.month).padStart(2, '0')}/${String(m.year).padStart(4, '0')}`;
}

export type MonthYearParse = { ok: true; value: MonthYear } | { ok: false; error: MessageKey };

/**
 * Parses `M/YYYY` or `MM/YYYY` (surrounding spaces ignored):
 * not that shape -> monthDateInvalidPattern; month outside 1-12 -> monthDateInvalidMonth;
 * year before 1900 -> monthDateInvalidYear.
 */
export function parseMonthYear(text: string): MonthYearParse {
  const m = /^(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!m) return { ok: false, error: 'monthDateInvalidPattern' };
  const month = Number(m[1]);
  const year = Number(m[2]);
  if (month < 1 || month > 12) return { ok: false, error: 'monthDateInvalidMonth' };
  if (year < MIN_MONTH_YEAR) return { ok: false, error: 'monthDateInvalidYear' };
  return { ok: true, value: { year, month } };
}

/** `3/2020` -> `03/2020`; null when it does not parse. */
export function normalizeMonthYear(text: string): string | null {
  const p = parseMonthYear(text);
  return p.ok ? formatMonthYear(p.value) : null;
}

export interface MonthYearRuleOptions {
  today?: Today;
  /**
   * How many months after the current one are accepted. 0 (default): none, a later
   * month is monthDateFutureDate. Above 0 (the current employer's start): a later month
   * is monthDateFarFutureDate.
   */
  maxMonthsAhead?: number;
}

/**
 * The error of a filled month/year value, or null. (Emptiness is the `required` rule's
 * business: an empty value here is monthDateInvalidPattern.)
 */
export function monthYearError(text: string, options: MonthYearRuleOptions = {}): MessageKey | null {
  const p = parseMonthYear(text);
  if (!p.ok) return p.error;
  const ahead = options.maxMonthsAhead ?? 0;
  const limit = addMonths(currentMonth(options.today), ahead);
  if (compareMonths(p.value, limit) > 0) return ahead > 0 ? 'monthDateFarFutureDate' : 'monthDateFutureDate';
  return null;
}

/** A past activity's from or to: a month/year not after the current month. */
export function activityMonthError(text: string, today?: Today): MessageKey | null {
  return monthYearError(text, { today });
}

/** The current employer's start: up to 6 months ahead, later is monthDateFarFutureDate. */
export function employerStartError(text: string, today?: Today): MessageKey | null {
  return monthYearError(text, { today, maxMonthsAhead: EMPLOYER_START_MAX_MONTHS_AHEAD });
}

/**
 * fromToDate when both values parse and `to` is before `from` (the same month is
 * fine); null otherwise (a value that does not parse has its own error).
 */
export function fromToError(from: string, to: string): MessageKey | null {
  const f = parseMonthYear(from);
  const t = parseMonthYear(to);
  if (!f.ok || !t.ok) return null;
  return compareMonths(t.value, f.value) < 0 ? 'fromToDate' : null;
}
