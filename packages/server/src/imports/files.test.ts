import { describe, expect, it } from 'vitest';
import { arrayElementLines, detectFormat, formatProblems, readCsvRows, readJsonRows } from './files.js';

const columns = ['id', 'name', 'note'];

describe('readCsvRows', () => {
  it('reads quoted fields (separator, doubled quote, line break), CRLF and a BOM, each row with its line', () => {
    const text =
      '\uFEFFid,name,note\r\n1,"Nováková, Jana","says ""hi"""\r\n\r\n2,Petr,"two\r\nlines"\r\n3,Eva,\r\n';
    const read = readCsvRows(text, { columns });
    expect(read).toEqual({
      ok: true,
      rows: [
        { line: 2, values: { id: '1', name: 'Nováková, Jana', note: 'says "hi"' } },
        { line: 4, values: { id: '2', name: 'Petr', note: 'two\r\nlines' } },
        { line: 6, values: { id: '3', name: 'Eva', note: '' } },
      ],
    });
  });

  it('takes ";" when the header uses it and no ","', () => {
    expect(readCsvRows('id;name\n1;A,B\n', { columns })).toEqual({
      ok: true,
      rows: [{ line: 2, values: { id: '1', name: 'A,B' } }],
    });
  });

  it('checks the header: unknown, twice, missing; and an empty file', () => {
    const read = readCsvRows('id,nme,id\n', { columns, required: ['id', 'name'] });
    expect(read.ok || read.problems).toEqual([
      { line: 1, message: 'unknown column "nme" (known: id, name, note)' },
      { line: 1, message: 'column "id" appears twice' },
      { line: 1, message: 'column "name" is missing' },
    ]);
    expect(readCsvRows('', { columns })).toEqual({
      ok: false,
      problems: [{ line: 1, message: 'the file is empty: a header row is needed' }],
    });
  });

  it('reports every row with the wrong number of fields, and a quote out of place, by line', () => {
    const counts = readCsvRows('id,name\n1\n2,B\n3,C,x\n', { columns });
    expect(counts.ok || counts.problems).toEqual([
      { line: 2, message: '1 fields, the header has 2' },
      { line: 4, message: '3 fields, the header has 2' },
    ]);
    expect(readCsvRows('id,name\n1,A\n2,"B\n', { columns })).toEqual({
      ok: false,
      problems: [{ line: 3, message: 'a quoted field is not closed' }],
    });
  });

  it('refuses a line longer than the limit, naming it', () => {
    const text = `id,name\n1,${'x'.repeat(100)}\n`;
    expect(readCsvRows(text, { columns, maxLineChars: 100 })).toEqual({
      ok: false,
      problems: [{ line: 2, message: 'the line is longer than 100 characters' }],
    });
    expect(readCsvRows(text, { columns, maxLineChars: 102 }).ok).toBe(true);
  });
});

describe('readJsonRows', () => {
  it('gives each element of the array (or of { key: [...] }) its line', () => {
    expect(readJsonRows('\uFEFF[\n {"a":"[,"},\n\n {"b":[1,\n2]}\n]', { notAList: 'x' })).toEqual({
      ok: true,
      rows: [
        { line: 2, values: { a: '[,' } },
        { line: 4, values: { b: [1, 2] } },
      ],
    });
    const wrapped = readJsonRows('{"persons":\n[{"a":1},\n{"b":2}]}', { notAList: 'x', listKey: 'persons' });
    expect(wrapped.ok && wrapped.rows.map((r) => r.line)).toEqual([2, 3]);
  });

  it('reports a syntax error with its line, and a file that is not a list', () => {
    const bad = readJsonRows('[\n  { "id": 1 },\n  { "id": 2 ]\n', { notAList: 'x' });
    expect(bad.ok || bad.problems[0]?.line).toBe(3);
    expect(bad.ok || bad.problems[0]?.message).toMatch(/^not valid JSON/);
    expect(readJsonRows('{"persons": 1}', { notAList: 'no list', listKey: 'persons' })).toEqual({
      ok: false,
      problems: [{ line: 1, message: 'no list' }],
    });
    expect(readJsonRows('{"persons": []}', { notAList: 'no list' }).ok).toBe(false);
  });

  it('finds element lines past strings with brackets and escaped quotes', () => {
    expect(arrayElementLines('[\n"a\\"]",\n{"b":"}"}\n]')).toEqual([2, 3]);
    expect(arrayElementLines('[]')).toEqual([]);
  });
});

describe('detectFormat', () => {
  it('goes by the file name, then by content', () => {
    expect(detectFormat('a.JSON', 'id')).toBe('json');
    expect(detectFormat('a.csv', '[')).toBe('csv');
    expect(detectFormat('a.txt', '\uFEFF  [')).toBe('json');
    expect(detectFormat('a', 'id,first_name')).toBe('csv');
  });
});

describe('formatProblems', () => {
  it('lists at most max problems, then how many more', () => {
    const problems = Array.from({ length: 7 }, (_, i) => ({ line: i + 1, message: 'bad' }));
    expect(formatProblems(problems, 3)).toEqual([
      'line 1: bad',
      'line 2: bad',
      'line 3: bad',
      '… and 4 more problems',
    ]);
    expect(formatProblems(problems.slice(0, 2), 3, (p) => `f.csv:${p.line}: ${p.message}`)).toEqual([
      'f.csv:1: bad',
      'f.csv:2: bad',
    ]);
  });
});
