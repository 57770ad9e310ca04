import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBuiltin, parseBuiltin, readBuiltin } from './builtin.js';
import { parseCsuLinkFile, ReferenceImportError, withLongNames } from './csu.js';
import { builtinAsCsuCsv, csuCsv } from './testing.js';

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

describe('the built-in codebook', () => {
  it('holds all 6,258 municipalities in 77 districts, the 591 repeated names told apart', () => {
    const builtin = readBuiltin();
    expect(builtin.snapshot).toBe('spring 2024');
    expect(builtin.sha256).toMatch(/^[0-9a-f]{64}$/);
    const { districts, municipalities } = parseBuiltin(builtin.text);
    expect(municipalities).toHaveLength(6258);
    expect(districts).toHaveLength(77);
    expect(new Set(districts.map((d) => d.code)).size).toBe(77);
    expect(new Set(districts.map((d) => d.name)).size).toBe(77);
    const known = new Set(districts.map((d) => d.code));
    expect(municipalities.every((m) => known.has(m.district))).toBe(true);
    expect(new Set(municipalities.map((m) => m.code)).size).toBe(6258);
    expect(new Set(municipalities.map((m) => m.long_name)).size).toBe(6258);

    const count = new Map<string, number>();
    for (const m of municipalities) count.set(m.name, (count.get(m.name) ?? 0) + 1);
    expect([...count.values()].filter((n) => n > 1)).toHaveLength(591);
    expect(count.get('Nová Ves')).toBe(14);
    const byCode = (code: string) => municipalities.find((m) => m.code === code);
    expect(byCode('582786')).toMatchObject({ name: 'Brno', long_name: 'Brno', district: '40711' });
    expect(byCode('554782')).toMatchObject({ name: 'Praha', long_name: 'Praha', district: '40924' });
    expect(byCode('581429')).toMatchObject({ long_name: 'Březina (Brno-venkov, 581429)' });
    expect(municipalities.map((m) => m.long_name)).toContain('Nová Ves (Brno-venkov)');
    // The small municipality the 40-town minimum lacked (issue 12).
    expect(municipalities.find((m) => m.name === 'Kunštát')).toMatchObject({ district: '40703' });
  });

  it('gives the same rows as an import of the same codebook in ČSÚ format', () => {
    const builtin = parseBuiltin(readBuiltin().text);
    const imported = parseCsuLinkFile(builtinAsCsuCsv());
    expect(imported.districts).toEqual(builtin.districts);
    expect(imported.municipalities).toEqual(builtin.municipalities);
  });

  it('is written and read back by formatBuiltin and readBuiltin', () => {
    const data = parseCsuLinkFile(
      csuCsv([
        ['900002', 'Horní Ves', '10002', 'Beta'],
        ['900001', 'Horní Ves', '10001', 'Alfa'],
      ]),
    );
    const dir = mkdtempSync(join(tmpdir(), 'ros-builtin-'));
    try {
      const file = join(dir, 'codebook.tsv');
      writeFileSync(
        file,
        formatBuiltin(data, { snapshot: 'winter 1999', source: 'made up', sourceSha256: 'x' }),
      );
      const back = readBuiltin(file);
      expect(back).toMatchObject({ snapshot: 'winter 1999', source: 'made up' });
      const read = parseBuiltin(back.text);
      expect(read.districts).toEqual(data.districts);
      // Written in code order.
      expect(read.municipalities.map((m) => m.code)).toEqual(['900001', '900002']);
      expect(read.municipalities).toEqual([...data.municipalities].reverse());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a damaged file with its line', () => {
    const text = '# snapshot: x\n[districts]\n10001\tAlfa\n[municipalities]\n900001\tJedna\n';
    expect(errorOf(() => parseBuiltin(text)).message).toBe('line 5: the built-in codebook is damaged');
    expect(errorOf(() => parseBuiltin('[districts]\n10001\tAlfa\n')).message).toMatch(/empty/);
  });
});
