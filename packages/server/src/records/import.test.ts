import { TEXT_POLICY_MESSAGE } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { formatImportErrors, MAX_REPORTED_ERRORS, parseRecordsFile } from './import.js';

describe('parseRecordsFile: JSON', () => {
  it('reads an array of certificates in either date format', () => {
    const text = JSON.stringify(
      [
        {
          id: 1,
          first_name: ' Jana ',
          last_name: 'Nováková',
          platnost_do: '2027-03-31',
          a1a3_valid_until: '31.03.2027',
          a2_valid_until: null,
        },
        {
          id: '2',
          first_name: 'Petr',
          last_name: 'Černý',
          platnost_do: '1.2.2027',
          stav: 'Ne',
          person_id: 7,
        },
      ],
      null,
      2,
    );
    const result = parseRecordsFile(text, 'json');
    expect(result).toEqual({
      ok: true,
      records: [
        {
          id: 1,
          person_id: null,
          stav: 'Ano',
          platnost_do: '2027-03-31',
          a1a3_valid_until: '2027-03-31',
          a2_valid_until: null,
          first_name: 'Jana',
          last_name: 'Nováková',
        },
        {
          id: 2,
          person_id: 7,
          stav: 'Ne',
          platnost_do: '2027-02-01',
          a1a3_valid_until: null,
          a2_valid_until: null,
          first_name: 'Petr',
          last_name: 'Černý',
        },
      ],
    });
  });

  it('reports every problem with the line its certificate starts on', () => {
    const text = [
      '[',
      '  { "id": 1, "first_name": "A", "last_name": "B", "platnost_do": "2027-01-01" },',
      '  {',
      '    "id": 0, "first_name": "A", "last_name": "B", "platnost_do": "2027-02-30"',
      '  },',
      '  { "id": 1, "first_name": "A, } [", "last_name": "B", "platnost_do": "2027-01-01" },',
      '  { "id": 3, "first_name": 5, "last_name": "B", "platnost_do": "2027-01-01", "stav": "yes", "platnost": 1 },',
      '  "text"',
      ']',
    ].join('\n');
    const result = parseRecordsFile(text, 'json');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([{ line: 8, message: 'certificate 5 is not an object' }]);
    // Without the stray string the field problems show, each with its line.
    const fields = parseRecordsFile(text.replace(',\n  "text"', ''), 'json');
    expect(fields.ok).toBe(false);
    if (fields.ok) return;
    expect(fields.errors).toEqual([
      { line: 3, message: 'id must be a whole number from 1 to 9007199254740991' },
      { line: 3, message: 'platnost_do "2027-02-30" is not a date (YYYY-MM-DD or dd.mm.yyyy)' },
      { line: 6, message: 'id 1 is already on line 2' },
      { line: 7, message: 'unknown field "platnost"' },
      { line: 7, message: 'first_name must be text of up to 100 characters' },
      { line: 7, message: 'stav must be "Ano" or "Ne", not "yes"' },
    ]);
  });

  it('reports the line of a JSON syntax error', () => {
    const result = parseRecordsFile('[\n  { "id": 1 },\n  { "id": 2 ]\n', 'json');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.line).toBe(3);
    expect(result.errors[0]?.message).toMatch(/^not valid JSON/);
  });

  it('needs an array', () => {
    expect(parseRecordsFile('{"id": 1}', 'json')).toEqual({
      ok: false,
      errors: [{ line: 1, message: 'the file must hold a JSON array of certificates' }],
    });
  });

  it('requires the required fields and limits names', () => {
    const result = parseRecordsFile(
      JSON.stringify([{ id: 5, first_name: 'x'.repeat(101), last_name: '' }]),
      'json',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.message)).toEqual([
      'last_name is required',
      'platnost_do is required',
      'first_name must be text of up to 100 characters',
    ]);
  });
});

describe('parseRecordsFile: CSV', () => {
  it('reads comma- or semicolon-separated files with quotes, a BOM and CRLF', () => {
    const comma =
      '\uFEFFid,first_name,last_name,platnost_do,a1a3_valid_until,a2_valid_until\r\n' +
      '10,"Jana ""Janička""",Nováková,2027-03-31,2027-03-31,\r\n' +
      '\r\n' +
      '11,Petr,"Černý, st.",31.12.2027,,2027-06-30\r\n';
    const semi = 'id;first_name;last_name;platnost_do\n12;Eva;Malá;2027-01-01\n';
    const a = parseRecordsFile(comma, 'csv');
    const b = parseRecordsFile(semi, 'csv');
    expect(
      a.ok && a.records.map((r) => [r.id, r.first_name, r.last_name, r.a1a3_valid_until, r.a2_valid_until]),
    ).toEqual([
      [10, 'Jana "Janička"', 'Nováková', '2027-03-31', null],
      [11, 'Petr', 'Černý, st.', null, '2027-06-30'],
    ]);
    expect(b.ok && b.records[0]?.last_name).toBe('Malá');
  });

  it('counts lines across quoted line breaks and reports the row a problem is on', () => {
    const text = 'id,first_name,last_name,platnost_do\n1,"A\nB",C,2027-01-01\n2,D,E\n3,F,G,2027-13-01\n';
    const result = parseRecordsFile(text, 'csv');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([{ line: 4, message: '3 fields, the header has 4' }]);
    const dates = parseRecordsFile(text.replace('2,D,E\n', ''), 'csv');
    expect(dates.ok).toBe(false);
    if (dates.ok) return;
    // 'A\nB' is a name with a line break: not allowed; the date problem is on line 4.
    expect(dates.errors).toEqual([
      { line: 2, message: `first_name ${TEXT_POLICY_MESSAGE}` },
      { line: 4, message: 'platnost_do "2027-13-01" is not a date (YYYY-MM-DD or dd.mm.yyyy)' },
    ]);
  });

  it('checks the header', () => {
    const result = parseRecordsFile('id,first_name,surname,first_name\n', 'csv');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^unknown column "surname"/),
      'column "first_name" appears twice',
      'column "last_name" is missing',
      'column "platnost_do" is missing',
    ]);
    expect(parseRecordsFile('', 'csv').ok).toBe(false);
  });

  it('reports an unclosed quote', () => {
    const result = parseRecordsFile('id,first_name,last_name,platnost_do\n1,"A,B,2027-01-01\n', 'csv');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([{ line: 2, message: 'a quoted field is not closed' }]);
  });
});

describe('formatImportErrors', () => {
  it('cuts a long list of problems', () => {
    const errors = Array.from({ length: MAX_REPORTED_ERRORS + 5 }, (_, i) => ({
      line: i + 1,
      message: 'bad',
    }));
    const lines = formatImportErrors('f.csv', errors);
    expect(lines).toHaveLength(MAX_REPORTED_ERRORS + 1);
    expect(lines[0]).toBe('f.csv:1: bad');
    expect(lines.at(-1)).toBe('… and 5 more problems');
  });
});
