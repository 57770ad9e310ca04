import { describe, expect, it } from 'vitest';
import {
  addDays,
  birthDateError,
  birthDateRange,
  calendarDateOf,
  completeDateInput,
  displayToIso,
  formatDisplayDate,
  formatIsoDate,
  intlCalendarDateOf,
  isIncompleteDateInput,
  isLeapYear,
  isoToDisplay,
  isValidCalendarDate,
  parseDateInput,
  parseIsoDate,
  parseIsoInstant,
  resolveToday,
} from './dates.js';

const today = { year: 2025, month: 3, day: 15 };

describe('calendar', () => {
  it('knows leap years', () => {
    expect(isLeapYear(2024)).toBe(true);
    expect(isLeapYear(2023)).toBe(false);
    expect(isLeapYear(1900)).toBe(false);
    expect(isLeapYear(2000)).toBe(true);
  });
  it('rejects days that do not exist', () => {
    expect(isValidCalendarDate(2023, 2, 28)).toBe(true);
    expect(isValidCalendarDate(2023, 2, 29)).toBe(false);
    expect(isValidCalendarDate(2024, 2, 29)).toBe(true);
    expect(isValidCalendarDate(2024, 2, 30)).toBe(false);
    expect(isValidCalendarDate(2025, 4, 31)).toBe(false);
    expect(isValidCalendarDate(2025, 12, 31)).toBe(true);
    expect(isValidCalendarDate(2025, 13, 1)).toBe(false);
    expect(isValidCalendarDate(2025, 0, 1)).toBe(false);
    expect(isValidCalendarDate(2025, 1, 0)).toBe(false);
  });
});

describe('today', () => {
  it('takes a calendar date as it is', () => {
    expect(resolveToday(today)).toEqual(today);
  });
  it('reads an instant in Europe/Prague', () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Prague (UTC+1).
    expect(calendarDateOf(new Date('2024-12-31T23:30:00Z'))).toEqual({ year: 2025, month: 1, day: 1 });
    // 22:30 UTC in summer is 00:30 next day (UTC+2).
    expect(resolveToday(new Date('2025-06-30T22:30:00Z'))).toEqual({ year: 2025, month: 7, day: 1 });
    expect(resolveToday(new Date('2025-06-30T21:30:00Z'))).toEqual({ year: 2025, month: 6, day: 30 });
  });
  it('counts Prague’s date as ICU’s time-zone data has it, 1996-2040, at every change of offset and date', () => {
    // ICU's offset of Prague at an instant, in hours.
    const hourOf = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Prague',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    const offset = (t: number) => (Number(hourOf.format(t)) - new Date(t).getUTCHours() + 24) % 24;
    // The date in Prague differs from the UTC date only from 22:00 UTC (summer) or 23:00 UTC
    // (winter): each day's instants on both sides of both; and each change of offset, found by
    // asking ICU for every hour of the last days of March and October, to the millisecond.
    const at: number[] = [];
    for (let day = Date.UTC(1996, 0, 1); day < Date.UTC(2041, 0, 1); day += 86_400_000) {
      for (const hour of [22, 23]) at.push(day + hour * 3_600_000 - 1, day + hour * 3_600_000);
    }
    let changes = 0;
    for (let year = 1996; year <= 2040; year++) {
      for (const month of [2, 9]) {
        for (let t = Date.UTC(year, month, 24); t < Date.UTC(year, month + 1, 1); t += 3_600_000) {
          if (offset(t) === offset(t + 3_600_000)) continue;
          changes++;
          at.push(t + 3_600_000 - 1, t + 3_600_000);
        }
      }
    }
    expect(changes).toBe(2 * (2040 - 1996 + 1));
    const wrong = at.filter(
      (t) => JSON.stringify(calendarDateOf(new Date(t))) !== JSON.stringify(intlCalendarDateOf(new Date(t))),
    );
    expect(wrong.map((t) => new Date(t).toISOString())).toEqual([]);
  });
  it('asks ICU before 1996, when Czech summer time ended in September', () => {
    // 1995: summer time ended on 24 September, so 1 October 22:30 UTC was 23:30 in Prague.
    expect(calendarDateOf(new Date('1995-10-01T22:30:00Z'))).toEqual({ year: 1995, month: 10, day: 1 });
  });
  it('defaults to now', () => {
    const d = resolveToday();
    expect(isValidCalendarDate(d.year, d.month, d.day)).toBe(true);
  });
});

describe('date entry dd.mm.yyyy: unpadded parts, never a guessed month or year', () => {
  it.each([
    ['05.07.1990', '05.07.1990'],
    ['5.7.1990', '05.07.1990'],
    ['5.7.1990.', '05.07.1990'],
    ['1. 2. 2000', '01.02.2000'],
    [' 29.2.2024 ', '29.02.2024'],
  ])('%s -> %s', (input, expected) => {
    expect(completeDateInput(input)).toBe(expected);
  });
  it.each([
    '',
    '32',
    '0',
    '31.4',
    '29.2.2023',
    '31.02.2024',
    '1.13.2000',
    '1.2.90',
    '1.2.19900',
    'a.b.c',
    '1/2/2000',
    '2000-01-02',
    '1..2000',
  ])('rejects %j', (input) => {
    expect(parseDateInput(input)).toBeNull();
  });
  it("does not complete a day alone or a day and month with today's month or year (issue 22)", () => {
    // Before: "5" became the 5th of this month, "5.7" the 5th of July this year.
    for (const partial of ['5', '5.', '31', '5.7', '5.7.', '5.7.19']) {
      expect(completeDateInput(partial), partial).toBeNull();
      expect(displayToIso(partial), partial).toBeNull();
      expect(isIncompleteDateInput(partial), partial).toBe(true);
    }
    for (const other of ['x', '5/7', '123', '5.7.1990', '1.2.19900'])
      expect(isIncompleteDateInput(other), other).toBe(false);
  });
  it('converts to and from ISO', () => {
    expect(displayToIso('5.7.1990')).toBe('1990-07-05');
    expect(displayToIso('x')).toBeNull();
    expect(isoToDisplay('1990-07-05')).toBe('05.07.1990');
    expect(isoToDisplay('1990-02-30')).toBeNull();
    expect(formatIsoDate({ year: 987, month: 1, day: 2 })).toBe('0987-01-02');
    expect(formatDisplayDate({ year: 2001, month: 12, day: 9 })).toBe('09.12.2001');
  });
  it('parses only exact ISO dates that exist', () => {
    expect(parseIsoDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseIsoDate('2023-02-29')).toBeNull();
    expect(parseIsoDate('2024-2-9')).toBeNull();
    expect(parseIsoDate('2024-02-29T00:00:00Z')).toBeNull();
  });
});

describe('birth date: the last 100 years up to today', () => {
  it('accepts both ends', () => {
    expect(birthDateError('1925-03-15', today)).toBeNull();
    expect(birthDateError('2025-03-15', today)).toBeNull();
  });
  it('says what is wrong one day beyond either end: too old, or in the future (issue 22)', () => {
    expect(birthDateError('1925-03-14', today)).toBe('birthDateTooOld');
    expect(birthDateError('1890-01-01', today)).toBe('birthDateTooOld');
    expect(birthDateError('2025-03-16', today)).toBe('birthDateFuture');
    expect(birthDateError('2031-01-01', today)).toBe('birthDateFuture');
  });
  it('says a day alone is an incomplete date', () => {
    expect(birthDateError('5', today)).toBe('dateIncomplete');
    expect(birthDateError('5.7', today)).toBe('dateIncomplete');
    expect(birthDateError('5.7.19', today)).toBe('dateIncomplete');
  });
  it('is required and must be a date', () => {
    expect(birthDateError('', today)).toBe('required');
    expect(birthDateError('  ', today)).toBe('required');
    expect(birthDateError('15.03.1990', today)).toBe('pattern');
    expect(birthDateError('1990-02-30', today)).toBe('pattern');
  });
  it('clamps 29 February 100 years back to 28 February', () => {
    const range = birthDateRange({ year: 2000, month: 2, day: 29 });
    expect(range.min).toEqual({ year: 1900, month: 2, day: 28 });
    expect(birthDateError('1900-02-28', { year: 2000, month: 2, day: 29 })).toBeNull();
    expect(birthDateError('1900-02-27', { year: 2000, month: 2, day: 29 })).toBe('birthDateTooOld');
  });
});

describe('addDays', () => {
  it('moves an ISO date by whole days across months, years and 29 February', () => {
    expect(addDays('2026-11-26', 0)).toBe('2026-11-26');
    expect(addDays('2026-11-26', 5)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-11-26', 365)).toBe('2027-11-26');
    expect(addDays('2026-11-26', -30)).toBe('2026-10-27');
  });
  it('does not shift at the daylight-saving change (a calendar, not a clock)', () => {
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-10-25', 1)).toBe('2026-10-26');
  });
  it('refuses what is not an ISO date or a whole number of days', () => {
    expect(() => addDays('26.11.2026', 1)).toThrow(RangeError);
    expect(() => addDays('2026-11-26', 0.5)).toThrow(RangeError);
  });
});

describe('parseIsoInstant (the operators’ since/until)', () => {
  it('takes a day or a time with a zone, as an ISO instant', () => {
    expect(parseIsoInstant('2026-03-01')).toBe('2026-03-01T00:00:00.000Z');
    expect(parseIsoInstant('2028-02-29')).toBe('2028-02-29T00:00:00.000Z');
    expect(parseIsoInstant('2026-03-01T08:28Z')).toBe('2026-03-01T08:28:00.000Z');
    expect(parseIsoInstant('2026-03-01T08:28:05.5+01:00')).toBe('2026-03-01T07:28:05.500Z');
    expect(parseIsoInstant('2026-03-01T00:00-14:00')).toBe('2026-03-01T14:00:00.000Z');
  });

  it('refuses what does not exist, where Date.parse would roll over', () => {
    for (const s of [
      '2026-02-30',
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-03-01T24:00Z',
      '2026-03-01T10:60Z',
      '2026-03-01T10:00:60Z',
      '2026-03-01T10:00+14:30',
      '2026-03-01T10:00',
      '2026-3-1',
      '',
    ])
      expect(parseIsoInstant(s), s).toBeNull();
  });
});
