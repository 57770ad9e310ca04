import { describe, expect, it } from 'vitest';
import {
  activityMonthError,
  addMonths,
  employerStartError,
  formatMonthYear,
  fromToError,
  monthYearError,
  normalizeMonthYear,
  parseMonthYear,
} from './monthYear.js';

const today = { year: 2025, month: 3, day: 15 };

describe('parseMonthYear', () => {
  it.each([
    ['3/2020', { year: 2020, month: 3 }],
    ['03/2020', { year: 2020, month: 3 }],
    ['12/1900', { year: 1900, month: 12 }],
    [' 1/2000 ', { year: 2000, month: 1 }],
  ])('%s parses', (input, value) => {
    expect(parseMonthYear(input)).toEqual({ ok: true, value });
  });
  it.each(['', '2020', '3-2020', '3/20', '003/2020', '3/02020', 'a/2020', '3 / 2020', '03.2020'])(
    '%j is monthDateInvalidPattern',
    (input) => {
      expect(parseMonthYear(input)).toEqual({ ok: false, error: 'monthDateInvalidPattern' });
    },
  );
  it.each(['0/2020', '00/2020', '13/2020', '99/2020'])('%s is monthDateInvalidMonth', (input) => {
    expect(parseMonthYear(input)).toEqual({ ok: false, error: 'monthDateInvalidMonth' });
  });
  it.each(['12/1899', '1/0000', '6/1000'])('%s is monthDateInvalidYear', (input) => {
    expect(parseMonthYear(input)).toEqual({ ok: false, error: 'monthDateInvalidYear' });
  });
  it('checks the month before the year', () => {
    expect(parseMonthYear('13/1899')).toEqual({ ok: false, error: 'monthDateInvalidMonth' });
  });
});

describe('formatting', () => {
  it('pads the month', () => {
    expect(formatMonthYear({ year: 2020, month: 3 })).toBe('03/2020');
    expect(normalizeMonthYear('3/2020')).toBe('03/2020');
    expect(normalizeMonthYear('13/2020')).toBeNull();
  });
  it('steps months across years', () => {
    expect(addMonths({ year: 2025, month: 3 }, -3)).toEqual({ year: 2024, month: 12 });
    expect(addMonths({ year: 2025, month: 11 }, 2)).toEqual({ year: 2026, month: 1 });
    expect(addMonths({ year: 2025, month: 3 }, -59)).toEqual({ year: 2020, month: 4 });
  });
});

describe('not in the future (past activities)', () => {
  it('accepts the current month and earlier', () => {
    expect(activityMonthError('03/2025', today)).toBeNull();
    expect(activityMonthError('12/2024', today)).toBeNull();
  });
  it('rejects the next month with monthDateFutureDate', () => {
    expect(activityMonthError('04/2025', today)).toBe('monthDateFutureDate');
    expect(activityMonthError('1/2026', today)).toBe('monthDateFutureDate');
  });
  it('passes the format errors through', () => {
    expect(activityMonthError('x', today)).toBe('monthDateInvalidPattern');
    expect(monthYearError('', { today })).toBe('monthDateInvalidPattern');
  });
});

describe('current employer start: up to 6 months ahead', () => {
  it('accepts up to six months ahead', () => {
    expect(employerStartError('03/2025', today)).toBeNull();
    expect(employerStartError('04/2025', today)).toBeNull();
    expect(employerStartError('09/2025', today)).toBeNull();
  });
  it('rejects the seventh month ahead with monthDateFarFutureDate', () => {
    expect(employerStartError('10/2025', today)).toBe('monthDateFarFutureDate');
  });
  it('crosses the year end', () => {
    const nov = { year: 2025, month: 11, day: 30 };
    expect(employerStartError('05/2026', nov)).toBeNull();
    expect(employerStartError('06/2026', nov)).toBe('monthDateFarFutureDate');
  });
  it('keeps the other rules', () => {
    expect(employerStartError('13/2025', today)).toBe('monthDateInvalidMonth');
    expect(employerStartError('1/1899', today)).toBe('monthDateInvalidYear');
  });
});

describe('fromToDate', () => {
  it('rejects to before from', () => {
    expect(fromToError('05/2020', '04/2020')).toBe('fromToDate');
    expect(fromToError('01/2021', '12/2020')).toBe('fromToDate');
  });
  it('accepts the same month and later', () => {
    expect(fromToError('05/2020', '5/2020')).toBeNull();
    expect(fromToError('12/2020', '01/2021')).toBeNull();
  });
  it('says nothing while either side does not parse', () => {
    expect(fromToError('x', '01/2021')).toBeNull();
    expect(fromToError('05/2020', '13/2019')).toBeNull();
  });
});
