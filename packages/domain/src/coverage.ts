// Month coverage (spec sections 4, 5, 9): the last 60 months must be covered by the
// current employer and the past activities, with at most 1 month uncovered.

import type { Today } from './dates.js';
import { type FormContext, type FormValues, isFieldHidden } from './fields.js';
import { COVERAGE_WINDOW_MONTHS, MAX_UNCOVERED_MONTHS } from './limits.js';
import {
  activityMonthError,
  currentMonth,
  employerStartError,
  fromMonthIndex,
  fromToError,
  type MonthYear,
  monthIndex,
  parseMonthYear,
} from './monthYear.js';

export interface CoverageInput {
  /** employer_current_from (MM/YYYY); '' when not filled. */
  employerFrom: string;
  /** past_activities rows; only from/to are read. */
  activities: ReadonlyArray<{ from: string; to: string }>;
}

export interface CoverageResult {
  /** The 60 months of the window, oldest first, ending with the current month. */
  window: MonthYear[];
  covered: MonthYear[];
  uncovered: MonthYear[];
  /** At most 1 month uncovered. */
  ok: boolean;
}

/**
 * The range [first, last] of a past activity as month indexes, or null when the row is
 * not a valid range: from and to must each pass the month/year rules (pattern, month,
 * year, not in the future) and to must not be before from. Invalid rows count for
 * nothing; the form reports their errors.
 */
export function activityRange(row: { from: string; to: string }, today?: Today): [number, number] | null {
  if (activityMonthError(row.from, today) || activityMonthError(row.to, today)) return null;
  if (fromToError(row.from, row.to)) return null;
  const f = parseMonthYear(row.from);
  const t = parseMonthYear(row.to);
  if (!f.ok || !t.ok) return null;
  return [monthIndex(f.value), monthIndex(t.value)];
}

/**
 * Which months of the window are covered.
 * Window: the 60 months ending with the current month (the current month included:
 * "from the current employer's start up to now" covers it).
 * Covered: by the current employer from its start (when the start passes its rules)
 * up to the current month, and by every valid past-activity range, ends included.
 * A start in the future (allowed up to 6 months ahead) covers nothing yet.
 */
export function computeCoverage(input: CoverageInput, today?: Today): CoverageResult {
  const last = monthIndex(currentMonth(today));
  const first = last - COVERAGE_WINDOW_MONTHS + 1;
  const ranges: Array<[number, number]> = [];

  if (input.employerFrom.trim() !== '' && !employerStartError(input.employerFrom, today)) {
    const start = parseMonthYear(input.employerFrom);
    if (start.ok) ranges.push([monthIndex(start.value), last]);
  }
  for (const row of input.activities) {
    const r = activityRange(row, today);
    if (r) ranges.push(r);
  }

  const window: MonthYear[] = [];
  const covered: MonthYear[] = [];
  const uncovered: MonthYear[] = [];
  for (let i = first; i <= last; i++) {
    const month = fromMonthIndex(i);
    window.push(month);
    if (ranges.some(([a, b]) => a <= i && i <= b)) covered.push(month);
    else uncovered.push(month);
  }
  return { window, covered, uncovered, ok: uncovered.length <= MAX_UNCOVERED_MONTHS };
}

/**
 * Whether the month coverage applies: in a new request only. It is of the current employer and
 * the past activities, which a duplicate request has not (their sections are hidden there). The
 * one place of this rule: the server's submit, the web's finish, its summary and its notice.
 */
export function coverageApplies(ctx: Pick<FormContext, 'duplicate'>): boolean {
  return !isFieldHidden('past_activities', ctx) && !isFieldHidden('employer_current_from', ctx);
}

/** The coverage of a request's values: its current employer's start and its past activities. */
export function coverageOfValues(
  values: Pick<FormValues, 'employer_current_from' | 'past_activities'>,
  today?: Today,
): CoverageResult {
  return computeCoverage(
    { employerFrom: values.employer_current_from, activities: values.past_activities },
    today,
  );
}

/** The request is covered well enough, or the coverage does not apply to it (a duplicate). */
export function coverageOk(
  values: Pick<FormValues, 'employer_current_from' | 'past_activities'>,
  ctx: Pick<FormContext, 'duplicate'>,
  today?: Today,
): boolean {
  return !coverageApplies(ctx) || coverageOfValues(values, today).ok;
}
