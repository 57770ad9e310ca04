import { describe, expect, it } from 'vitest';
import {
  checkPageTarget,
  isVerified,
  parseValidityAnswer,
  parseValidityId,
  shortValidityName,
  toValidityDisplayDate,
  toValidityIsoDate,
  typedValidityId,
  type ValidityAnswer,
  validityCheckPath,
  validityCode,
  validityCodeMatches,
} from './validity.js';

describe('parseValidityId', () => {
  it('splits a well-formed id', () => {
    expect(parseValidityId('123x2069')).toEqual({ recordId: '123', code: '2069' });
    expect(parseValidityId('1x2')).toEqual({ recordId: '1', code: '2' });
  });

  it('drops leading zeros so equal numbers compare equal', () => {
    expect(parseValidityId('007x02069')).toEqual({ recordId: '7', code: '2069' });
    expect(parseValidityId('0x0')).toEqual({ recordId: '0', code: '0' });
    expect(parseValidityId('000x00')).toEqual({ recordId: '0', code: '0' });
  });

  it('accepts 18 digits per part and rejects 19', () => {
    const d18 = '9'.repeat(18);
    expect(parseValidityId(`${d18}x${d18}`)).toEqual({ recordId: d18, code: d18 });
    expect(parseValidityId(`${'9'.repeat(19)}x1`)).toBeNull();
    expect(parseValidityId(`1x${'9'.repeat(19)}`)).toBeNull();
    expect(parseValidityId(`${'1'.repeat(400)}x${'2'.repeat(400)}`)).toBeNull();
  });

  it.each([
    '',
    'x',
    '1x',
    'x1',
    '1x2x3',
    '-1x5',
    '1x-5',
    '+1x5',
    '1e3x2',
    '1.5x2',
    ' 1x2',
    '1x2 ',
    '1 x2',
    '1X2',
    '0x1x',
    '١x٢',
    '１x２',
    '1x٢',
    '0b1x2',
    '0x1F',
    '1x2\n',
    'abc',
  ])('rejects %j', (s) => {
    expect(parseValidityId(s)).toBeNull();
  });

  it('rejects non-strings', () => {
    expect(parseValidityId(null)).toBeNull();
    expect(parseValidityId(undefined)).toBeNull();
  });
});

describe('validityCode', () => {
  it('adds day, month and year as numbers', () => {
    expect(validityCode('31.12.2026')).toBe(31 + 12 + 2026);
    expect(validityCode('2026-12-31')).toBe(2069);
    expect(validityCode('01.01.2027')).toBe(2029);
    expect(validityCode('1.1.2027')).toBe(2029);
    expect(validityCode('29.02.2028')).toBe(29 + 2 + 2028);
  });

  it('is null for text that is not a real date', () => {
    for (const s of [
      '',
      '2026-13-01',
      '31.04.2026',
      '29.02.2027',
      '2026-02-30',
      '00.01.2026',
      '12/31/2026',
      'x',
    ]) {
      expect(validityCode(s)).toBeNull();
    }
  });
});

describe('date formats', () => {
  it('converts between storage and display formats', () => {
    expect(toValidityDisplayDate('2027-03-05')).toBe('05.03.2027');
    expect(toValidityDisplayDate('5.3.2027')).toBe('05.03.2027');
    expect(toValidityIsoDate('05.03.2027')).toBe('2027-03-05');
    expect(toValidityIsoDate('2027-02-29')).toBeNull();
  });
});

describe('shortValidityName', () => {
  it('keeps the first three letters', () => {
    expect(shortValidityName('Jiřina')).toBe('Jiř');
    expect(shortValidityName('Dvořáková')).toBe('Dvo');
    expect(shortValidityName('Al')).toBe('Al');
    expect(shortValidityName('  Eva ')).toBe('Eva');
  });

  it('counts a letter with a combining mark as one letter', () => {
    // 'Š' written as S + combining caron, 'ť' as t + combining caron.
    expect(shortValidityName('S\u030Ct\u030Castna\u0301')).toBe('Šťa');
    // A mark with no precomposed form stays with its letter.
    expect(shortValidityName('Ab\u0333cd')).toBe('Ab\u0333c');
  });
});

const answer = (platnost_do: string, stav: 'Ano' | 'Ne' = 'Ano'): ValidityAnswer => ({
  data: { stav, platnost_do, jmeno: 'Jan', prijmeni: 'Nov' },
});

describe('validityCodeMatches and isVerified', () => {
  it('verifies a valid record whose code matches', () => {
    expect(validityCodeMatches(answer('31.12.2026'), '2069')).toBe(true);
    expect(validityCodeMatches(answer('31.12.2026'), '002069')).toBe(true);
    expect(isVerified(answer('31.12.2026'), '2069')).toBe(true);
  });

  it('does not verify a wrong code', () => {
    expect(validityCodeMatches(answer('31.12.2026'), '2068')).toBe(false);
    expect(isVerified(answer('31.12.2026'), '2070')).toBe(false);
    expect(isVerified(answer('31.12.2026'), '')).toBe(false);
    expect(isVerified(answer('31.12.2026'), '20 69')).toBe(false);
  });

  it("does not verify stav 'Ne' even with the right code", () => {
    expect(validityCodeMatches(answer('31.12.2026', 'Ne'), '2069')).toBe(true);
    expect(isVerified(answer('31.12.2026', 'Ne'), '2069')).toBe(false);
  });

  it('does not verify a missing answer or a date that is not a date', () => {
    expect(isVerified(null, '2069')).toBe(false);
    expect(isVerified(answer('xx.12.2026'), '2069')).toBe(false);
  });
});

describe('parseValidityAnswer', () => {
  it('accepts the spec shape with and without categories', () => {
    expect(parseValidityAnswer(answer('31.12.2026'))).toEqual(answer('31.12.2026'));
    const full = {
      ...answer('31.12.2026'),
      a1a3: { valid_until: '31.12.2026' },
      a2: { valid_until: '30.06.2026' },
    };
    expect(parseValidityAnswer(full)).toEqual(full);
  });

  it('rejects other shapes', () => {
    const ok = answer('31.12.2026');
    for (const bad of [
      null,
      'x',
      [],
      {},
      { data: { ...ok.data, platnost_do: '2026-12-31' } },
      { data: { ...ok.data, stav: 'yes' } },
      { data: { ...ok.data, jmeno: 1 } },
      { data: { stav: 'Ano', platnost_do: '31.12.2026', jmeno: 'Jan' } },
      { data: { ...ok.data, extra: 1 } },
      { ...ok, a2: { valid_until: null } },
      { ...ok, a2: { valid_until: '31.12.2026', x: 1 } },
      { ...ok, a1a3: true },
      { ...ok, extra: 1 },
    ]) {
      expect(parseValidityAnswer(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('validityCheckPath', () => {
  it('builds the link from the record id and the validity date', () => {
    expect(validityCheckPath(42, '2026-12-31')).toBe('/check?id=42x2069');
    expect(() => validityCheckPath(42, 'nope')).toThrow();
  });
});

describe('/check without a link (issue 36)', () => {
  it('no id is the form, a good id the check, anything else not found', () => {
    expect(checkPageTarget(null)).toBe('form');
    expect(checkPageTarget('990000001x2070')).toEqual({ recordId: '990000001', code: '2070' });
    for (const bad of ['', '1x', 'abc', '1x2x3', '1X2']) expect(checkPageTarget(bad)).toBe('not-found');
  });

  it('a typed number and date make the id of the link; the whole id typed works too', () => {
    expect(typedValidityId(' 990 000 001 ', '31.12.2027')).toEqual({ recordId: '990000001', code: '2070' });
    expect(typedValidityId('990000001', '2027-12-31')).toEqual({ recordId: '990000001', code: '2070' });
    expect(typedValidityId('990000001x2070', '')).toEqual({ recordId: '990000001', code: '2070' });
    expect(typedValidityId('990000001x2070', '31.12.2027')).toBeNull();
    expect(typedValidityId('990000001', '31.02.2027')).toBeNull();
    expect(typedValidityId('99-1', '31.12.2027')).toBeNull();
    expect(typedValidityId('', '31.12.2027')).toBeNull();
    expect(typedValidityId('1'.repeat(19), '31.12.2027')).toBeNull();
  });
});
