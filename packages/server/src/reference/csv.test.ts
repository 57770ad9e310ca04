import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, decodeCodebook, parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads quoted and unquoted fields with their line numbers', () => {
    const recs = parseCsv('a,b,c\n"1","x",3\n4,"y z",""\n');
    expect(recs).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'x', '3'] },
      { line: 3, fields: ['4', 'y z', ''] },
    ]);
  });

  it('turns a doubled quote inside quotes into one quote and keeps separators inside quotes', () => {
    expect(parseCsv('"Obec ""U Lípy"", okres",2')[0]?.fields).toEqual(['Obec "U Lípy", okres', '2']);
  });

  it('accepts CRLF, a byte-order mark, a missing final line end and skips blank lines', () => {
    const recs = parseCsv('\uFEFF"h1","h2"\r\n\r\n"a","b"\r\n"c","d"');
    expect(recs.map((r) => r.fields)).toEqual([
      ['h1', 'h2'],
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(recs.map((r) => r.line)).toEqual([1, 3, 4]);
  });

  it('counts lines inside a quoted field that spans lines', () => {
    const recs = parseCsv('h\n"two\nlines"\nnext\n');
    expect(recs[1]).toEqual({ line: 2, fields: ['two\nlines'] });
    expect(recs[2]).toEqual({ line: 4, fields: ['next'] });
  });

  it('reports an unclosed quote at the line where it opens', () => {
    expect(() => parseCsv('h\nok\n"open,\nmore\n')).toThrowError(CsvSyntaxError);
    try {
      parseCsv('h\nok\n"open,\nmore\n');
    } catch (err) {
      expect((err as CsvSyntaxError).line).toBe(3);
    }
  });

  it('rejects text after a closing quote and a quote inside an unquoted field', () => {
    expect(() => parseCsv('"a"b,c')).toThrowError(/line 1: unexpected text after a closing quote/);
    expect(() => parseCsv('h\nab"c,d')).toThrowError(/line 2: a quote inside an unquoted field/);
  });
});

describe('decodeCodebook', () => {
  it('reads UTF-8 and falls back to windows-1250 for older exports', () => {
    expect(decodeCodebook(new TextEncoder().encode('Žďár nad Sázavou'))).toBe('Žďár nad Sázavou');
    // "Žďár" in windows-1250: Ž=0x8E ď=0xEF á=0xE1 r
    expect(decodeCodebook(new Uint8Array([0x8e, 0xef, 0xe1, 0x72]))).toBe('Žďár');
  });
});
