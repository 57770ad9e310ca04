import { describe, expect, it } from 'vitest';
import { BUILTIN_DISTRICTS, BUILTIN_MUNICIPALITIES } from './builtin.js';
import { parseCsuLinkFile, ReferenceImportError, withLongNames } from './csu.js';
import { csuCsv } from './testing.js';

function errorOf(fn: () => unknown): ReferenceImportError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ReferenceImportError) return err;
    throw err;
  }
  throw new Error('expected a ReferenceImportError');
}

describe('parseCsuLinkFile', () => {
  it('reads municipalities and districts and names repeated municipalities by district', () => {
    const data = parseCsuLinkFile(
      csuCsv([
        ['900001', 'Horní Ves', '10001', 'Alfa'],
        ['900002', 'Horní Ves', '10002', 'Beta'],
        ['900003', 'Chlum', '10001', 'Alfa'],
        ['900004', 'Hůrka', '10002', 'Beta'],
      ]),
    );
    expect(data.districts).toEqual([
      { code: '10001', name: 'Alfa' },
      { code: '10002', name: 'Beta' },
    ]);
    expect(data.municipalities.map((m) => m.long_name)).toEqual([
      'Horní Ves (Alfa)',
      'Horní Ves (Beta)',
      'Chlum',
      'Hůrka',
    ]);
    expect(data.municipalities[0]).toEqual({
      code: '900001',
      name: 'Horní Ves',
      long_name: 'Horní Ves (Alfa)',
      district: '10001',
    });
  });

  it('adds the code where even name and district repeat', () => {
    const m = withLongNames(
      [
        { code: '2', name: 'Lhota', district: 'D' },
        { code: '1', name: 'Lhota', district: 'D' },
        { code: '3', name: 'Lhota', district: 'E' },
      ],
      [
        { code: 'D', name: 'Dé' },
        { code: 'E', name: 'É' },
      ],
    );
    expect(m.map((x) => x.long_name)).toEqual(['Lhota (Dé, 2)', 'Lhota (Dé, 1)', 'Lhota (É)']);
  });

  it('accepts upper-case column names and columns in another order', () => {
    const text =
      'TEXT2,CHODNOTA2,TEXT1,CHODNOTA1,KODCIS2,AKRCIS2,KODCIS1,AKRCIS1,TYPVAZ,KODJAZ\nAlfa,10001,Obec,900001,101,OKRES_NUTS,43,CISOB,x,CS\n';
    expect(parseCsuLinkFile(text).municipalities).toEqual([
      { code: '900001', name: 'Obec', long_name: 'Obec', district: '10001' },
    ]);
  });

  it('rejects a file without the expected header on line 1', () => {
    const err = errorOf(() => parseCsuLinkFile('kod,nazev\n1,Obec\n'));
    expect(err.line).toBe(1);
    expect(err.message).toMatch(/header lacks kodjaz/);
  });

  it('rejects an empty file and a file without rows', () => {
    expect(errorOf(() => parseCsuLinkFile('')).line).toBe(1);
    expect(errorOf(() => parseCsuLinkFile(csuCsv([]))).message).toMatch(/no municipalities/);
  });

  it('reports a non-numeric code with its line number', () => {
    const text = csuCsv([
      ['900001', 'Jedna', '10001', 'Alfa'],
      ['900002', 'Dvě', '10001', 'Alfa'],
      ['90O003', 'Tři', '10001', 'Alfa'],
    ]);
    const err = errorOf(() => parseCsuLinkFile(text));
    expect(err.line).toBe(4);
    expect(err.message).toBe('line 4: municipality code "90O003" is not a number');
    expect(errorOf(() => parseCsuLinkFile(csuCsv([['900001', 'Jedna', 'X1', 'Alfa']]))).message).toMatch(
      /line 2: district code "X1"/,
    );
  });

  it('reports a duplicate municipality code with both lines', () => {
    const err = errorOf(() =>
      parseCsuLinkFile(
        csuCsv([
          ['900001', 'Jedna', '10001', 'Alfa'],
          ['900002', 'Dvě', '10001', 'Alfa'],
          ['900001', 'Jedna znovu', '10001', 'Alfa'],
        ]),
      ),
    );
    expect(err.line).toBe(4);
    expect(err.message).toMatch(/900001 occurs twice \(also on line 2\)/);
  });

  it('reports a district with two names, a short row, a missing name and another link file', () => {
    const twoNames = csuCsv([
      ['900001', 'Jedna', '10001', 'Alfa'],
      ['900002', 'Dvě', '10001', 'Omega'],
    ]);
    expect(errorOf(() => parseCsuLinkFile(twoNames)).message).toMatch(
      /line 3: district 10001 is called "Omega"/,
    );
    const short = `${csuCsv([['900001', 'Jedna', '10001', 'Alfa']])}"CS","x","CISOB",43,"900002"\r\n`;
    expect(errorOf(() => parseCsuLinkFile(short)).message).toBe('line 3: expected 10 fields, found 5');
    expect(errorOf(() => parseCsuLinkFile(csuCsv([['900001', ' ', '10001', 'Alfa']]))).line).toBe(2);
    const orp = csuCsv([['900001', 'Jedna', '1000', 'Alfa']]).replace(',101,', ',65,');
    expect(errorOf(() => parseCsuLinkFile(orp)).message).toMatch(/line 2: links codebook 43 to 65/);
  });
});

describe('built-in minimum', () => {
  it('has 77 districts with unique codes and names, and towns in known districts', () => {
    expect(BUILTIN_DISTRICTS).toHaveLength(77);
    expect(new Set(BUILTIN_DISTRICTS.map((d) => d.code)).size).toBe(77);
    expect(new Set(BUILTIN_DISTRICTS.map((d) => d.name)).size).toBe(77);
    const codes = new Set(BUILTIN_DISTRICTS.map((d) => d.code));
    expect(BUILTIN_MUNICIPALITIES.length).toBeGreaterThanOrEqual(30);
    for (const m of BUILTIN_MUNICIPALITIES) expect(codes.has(m.district), m.name).toBe(true);
    expect(new Set(BUILTIN_MUNICIPALITIES.map((m) => m.code)).size).toBe(BUILTIN_MUNICIPALITIES.length);
  });
});
