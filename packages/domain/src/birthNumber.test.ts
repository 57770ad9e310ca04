import { describe, expect, it } from 'vitest';
import {
  birthNumberDateErrors,
  birthNumberError,
  birthNumberFormatError,
  formatBirthNumber,
  hasValidBirthNumberChecksum,
  normalizeBirthNumber,
  parseBirthNumber,
} from './birthNumber.js';

describe('format', () => {
  it.each([
    '9001011234', // 10 digits
    '900101/1234', // with slash
    '900101/123', // 9 digits (births before 1954)
    '500101123',
    '905101/1234', // woman, +50
    '902101/1234', // +20 (since 2004)
    '907101/1234', // +70
    '901231/1234', // month 12, day 31
    '903231/1234', // month 12 + 20
    '906231/1234', // 12 + 50
    '908231/1234', // 12 + 70
    ' 900101 / 1234 ',
  ])('accepts %j', (s) => {
    expect(birthNumberFormatError(s)).toBeNull();
  });
  it.each([
    '',
    '900001/1234', // month 00
    '901301/1234', // month 13
    '902001/1234', // month 20 (offset 20 -> 0)
    '903301/1234', // 33 = 13 + 20
    '904001/1234', // 40: no offset
    '905001/1234', // 50 -> 0
    '906301/1234', // 63 = 13 + 50
    '907001/1234', // 70 -> 0
    '908301/1234', // 83 = 13 + 70
    '909901/1234',
    '900100/1234', // day 00
    '900132/1234', // day 32
    '900101/12', // 2 digits after
    '900101/12345', // 5 digits after
    '90010/11234', // slash in the wrong place
    '900101//1234',
    '9001011234a',
    'abcdef/1234',
  ])('rejects %j with birthNumberInvalidFormat', (s) => {
    expect(birthNumberFormatError(s)).toBe('birthNumberInvalidFormat');
  });
  it('parses the parts, removing the month offset', () => {
    expect(parseBirthNumber('855223/1234')).toEqual({ yy: 85, mm: 52, month: 2, day: 23, suffix: '1234' });
    expect(parseBirthNumber('047231/123')).toEqual({ yy: 4, mm: 72, month: 2, day: 31, suffix: '123' });
  });
  it('normalises and formats', () => {
    expect(normalizeBirthNumber(' 855223 / 1234 ')).toBe('8552231234');
    expect(formatBirthNumber('8552231234')).toBe('855223/1234');
    expect(formatBirthNumber('855223/123')).toBe('855223/123');
  });
});

describe('agreement with the birth date', () => {
  const born = { year: 1985, month: 2, day: 23 };
  it('agrees for every month offset', () => {
    for (const s of ['850223/1234', '852223/1234', '855223/1234', '857223/1234']) {
      expect(birthNumberError(s, born)).toBeNull();
    }
  });
  it('reports the day', () => {
    expect(birthNumberError('850224/1234', born)).toBe('birthNumberInvalidDay');
  });
  it('reports the month, with or without offset', () => {
    expect(birthNumberError('850323/1234', born)).toBe('birthNumberInvalidMonth');
    expect(birthNumberError('855323/1234', born)).toBe('birthNumberInvalidMonth');
    expect(birthNumberError('852123/1234', born)).toBe('birthNumberInvalidMonth');
  });
  it('reports the last two digits of the year', () => {
    expect(birthNumberError('860223/1234', born)).toBe('birthNumberInvalidYear');
    expect(birthNumberError('850223/1234', { year: 1885, month: 2, day: 23 })).toBeNull();
    expect(birthNumberError('050223/123', { year: 1905, month: 2, day: 23 })).toBeNull();
    expect(birthNumberError('000223/1234', { year: 2000, month: 2, day: 23 })).toBeNull();
  });
  it('lists every mismatch in the order day, month, year; the first is the error', () => {
    expect(birthNumberDateErrors('860324/1234', born)).toEqual([
      'birthNumberInvalidDay',
      'birthNumberInvalidMonth',
      'birthNumberInvalidYear',
    ]);
    expect(birthNumberError('860324/1234', born)).toBe('birthNumberInvalidDay');
  });
  it('checks the format first and needs no date', () => {
    expect(birthNumberError('851323/1234', born)).toBe('birthNumberInvalidFormat');
    expect(birthNumberError('850224/1234')).toBeNull();
    expect(birthNumberError('850224/1234', null)).toBeNull();
  });
});

describe('mod-11 checksum (helper, not a rule)', () => {
  it('accepts numbers divisible by 11', () => {
    // 850101123 % 11 = 3: 8501011233 = 11 * 772819203.
    expect(11 * 772819203).toBe(8501011233);
    expect(hasValidBirthNumberChecksum('850101/1233')).toBe(true);
    expect(hasValidBirthNumberChecksum('850101/1234')).toBe(false);
  });
  it('knows the remainder-10 exception and 9-digit numbers', () => {
    // 801231001 % 11 = 10 -> check digit 0.
    expect(Number('801231001') % 11).toBe(10);
    expect(hasValidBirthNumberChecksum('8012310010')).toBe(true);
    expect(hasValidBirthNumberChecksum('8012310011')).toBe(false);
    expect(hasValidBirthNumberChecksum('500101/123')).toBe(true);
    expect(hasValidBirthNumberChecksum('abc')).toBe(false);
  });
  it('rejects a number off by one', () => {
    const base = 736028571;
    const check = base % 11;
    expect(check).not.toBe(10);
    expect(hasValidBirthNumberChecksum(`${base}${check}`)).toBe(true);
    expect(hasValidBirthNumberChecksum(`${base}${(check + 1) % 10}`)).toBe(false);
  });
});
