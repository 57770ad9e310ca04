import { describe, expect, expectTypeOf, it } from 'vitest';
import { isDataMailboxShown } from './conditions.js';
import { defaultFormValues, FIELDS } from './fields.js';
import { validateFormValues } from './form.js';
import {
  dateFromRegister,
  isCzechCitizen,
  MATCH_BOUND_FIELDS,
  type MatchBoundField,
  matchMismatches,
  prefillFromRegister,
  registerFormContext,
  sexFromRegister,
  splitStreet,
} from './prefill.js';
import { type RegisterPerson, registerPersonSchema } from './register.js';

const full: RegisterPerson = {
  jmeno: 'Jan',
  prijmeni: 'Novák',
  rodne_prijm: 'Novák',
  pohlavi: '1',
  rc: '850315/1234',
  dat_nar: '1985-03-15',
  misto_nar: '554782',
  okres_nar: 'CZ0100',
  stat_nar: 'CZ',
  ulice: 'Dlouhá 12/5',
  mesto: 'Praha',
  psc: '110 00',
  stat: 'CZ',
  st_kod: 'CZ',
  typ_op_pas: 'ID',
  op_pas: '123456789',
  web_op_pas: '999',
  web_st_kod2: 'SK',
  web_st5_kody: ['DE', ' ', 'AT'],
  web_zamestnavatel: 'Letiště Praha, a. s.',
  web_zam_od: '01/2020',
  web_funkce: 'Technik',
  web_popis_cinnosti: 'Údržba letadel',
  web_duvod_zadosti: 'Přístup do SRA',
  web_kont_firma: 'Firma s.r.o.',
  web_kont_ulice: 'Krátká',
  web_kont_cp: '7',
  web_kont_co: '2a',
  web_kont_mesto: 'Brno',
  web_kont_psc: '602 00',
  web_kont_stat: 'CZ',
  tel: '601 123 456',
  email: 'jan.novak@example.cz',
  dat_schranka: 'abc1234',
  typ_predani: 'EMAIL',
  funkce_platnost: 'A1',
  activities: [
    { zam_od: '09/2015', zam_do: '12/2019', typ: 1, zamestnavatel: 'ČSA', funkce: 'Mechanik' },
    { zam_od: '09/2011', zam_do: '06/2015', typ: 2, zamestnavatel: 'ČVUT', funkce: 'Letectví' },
    { zam_od: '07/2015', zam_do: '08/2015', typ: 3, zamestnavatel: 'Cesta', funkce: 'ignored' },
  ],
  abroad_stay: [{ stat: 'DE', duvod: 'Práce' }],
};

describe('prefillFromRegister: every field', () => {
  const { values } = prefillFromRegister(full, { duplicate: false });
  it.each([
    ['first_name', 'Jan'],
    ['last_name', 'Novák'],
    ['birth_name', 'Novák'],
    ['sex', '1'],
    ['birth_date', '1985-03-15'],
    ['birth_number', '850315/1234'],
    ['birth_municipality', '554782'],
    ['birth_district', 'CZ0100'],
    ['birth_state', 'CZ'],
    ['citizen_of_1', 'CZ'],
    ['citizen_of_2', 'SK'],
    ['other_citizenships', ['DE', 'AT']],
    ['document_type', 'OP_CR'],
    ['document_number', '123456789'],
    ['home_street', 'Dlouhá'],
    ['home_house_num', '12'],
    ['home_org_num', '5'],
    ['home_city', 'Praha'],
    ['home_zip', '110 00'],
    ['home_state', 'CZ'],
    ['employer_current_name', 'Letiště Praha, a. s.'],
    ['employer_current_from', '01/2020'],
    ['employer_current_position', 'Technik'],
    ['employer_current_description', 'Údržba letadel'],
    ['reason_for_request', 'Přístup do SRA'],
    ['contact_company', 'Firma s.r.o.'],
    ['contact_street', 'Krátká'],
    ['contact_house_num', '7'],
    ['contact_org_num', '2a'],
    ['contact_city', 'Brno'],
    ['contact_zip', '602 00'],
    ['contact_state', 'CZ'],
    ['telephone', '601 123 456'],
    ['email', 'jan.novak@example.cz'],
    ['data_mailbox', 'abc1234'],
    ['delivery_type', 'EMAIL'],
    [
      'past_activities',
      [
        { from: '09/2015', to: '12/2019', type: '1', field1: 'ČSA', field2: 'Mechanik' },
        { from: '09/2011', to: '06/2015', type: '2', field1: 'ČVUT', field2: 'Letectví' },
        { from: '07/2015', to: '08/2015', type: '3', field1: 'Cesta', field2: '' },
      ],
    ],
    ['abroad_stay', [{ state: 'DE', reason: 'Práce' }]],
  ] as const)('%s', (field, expected) => {
    expect(values[field]).toEqual(expected);
  });

  it('sets nothing else', () => {
    expect(Object.keys(values)).toHaveLength(38);
  });
});

describe('prefillFromRegister: the register columns', () => {
  it("each is read once: by the one entry that names it (fields.ts `register`) or by prefill's own rules", () => {
    const byEntry = Object.values(FIELDS).flatMap((s) => ('register' in s && s.register ? [s.register] : []));
    expect(new Set(byEntry).size).toBe(byEntry.length);
    // Read by rules of prefill's own: codes, the ISO date, the street's numbers, the document, the lists.
    const own = [
      'pohlavi',
      'dat_nar',
      'ulice',
      'typ_op_pas',
      'op_pas',
      'web_op_pas',
      'web_st5_kody',
      'activities',
      'abroad_stay',
    ];
    // The certificate's categories as the register wrote them: not a field of the form.
    const notForm = ['funkce_platnost'];
    expect([...byEntry, ...own, ...notForm].sort()).toEqual(Object.keys(registerPersonSchema.shape).sort());
  });

  it('an entry with a column is prefilled from it; one disabled by what came before is not', () => {
    const p = prefillFromRegister(
      { ...full, stat_nar: 'SK', okres_nar: '40711', st_kod: '##', web_st_kod2: 'CZ' },
      { duplicate: false },
    );
    expect(p.values.email).toBe(full.email);
    expect(p.values.contact_street).toBe(full.web_kont_ulice);
    expect(p.values.birth_district).toBeUndefined();
    expect(p.values.citizen_of_2).toBeUndefined();
  });
});

describe('prefillFromRegister: missing data', () => {
  const minimal: RegisterPerson = { jmeno: ' Eva ', prijmeni: 'Malá', ulice: '  ', rc: null, activities: [] };
  it('sets only what the register knows, trimmed', () => {
    expect(prefillFromRegister(minimal, { duplicate: false }).values).toEqual({
      first_name: 'Eva',
      last_name: 'Malá',
    });
  });
  it('falls back to the web document number', () => {
    const r = prefillFromRegister({ ...minimal, web_op_pas: 'X1', typ_op_pas: 'P' }, { duplicate: false });
    expect(r.values.document_number).toBe('X1');
    expect(r.values.document_type).toBe('PAS');
  });
  it('leaves out the district for a birth abroad', () => {
    const r = prefillFromRegister(
      { ...minimal, stat_nar: 'SK', misto_nar: 'Bratislava', okres_nar: 'X' },
      { duplicate: false },
    );
    expect(r.values.birth_municipality).toBe('Bratislava');
    expect(r.values.birth_district).toBeUndefined();
  });
  it('leaves out the second citizenship of a stateless person', () => {
    const r = prefillFromRegister({ ...minimal, st_kod: '##', web_st_kod2: 'SK' }, { duplicate: false });
    expect(r.values.citizen_of_1).toBe('##');
    expect(r.values.citizen_of_2).toBeUndefined();
  });
});

describe('prefillFromRegister: document type', () => {
  const doc = (typ_op_pas: string, duplicate: boolean) =>
    prefillFromRegister({ jmeno: 'A', prijmeni: 'B', typ_op_pas, op_pas: '1' }, { duplicate }).values
      .document_type;
  it('maps ID to OP_CR, P to PAS and anything else to PAS', () => {
    expect(doc('ID', false)).toBe('OP_CR');
    expect(doc('P', false)).toBe('PAS');
    expect(doc('XX', false)).toBe('PAS');
  });
  it("keeps the record's own form type in duplicate mode", () => {
    expect(doc('OP_CR', true)).toBe('OP_CR');
    expect(doc('OP_CR', false)).toBe('PAS');
    expect(doc('ID', true)).toBe('OP_CR');
  });
});

describe('prefillFromRegister: read-only fields', () => {
  it('locks identity, address and names in normal mode, not contact or employer', () => {
    const ro = prefillFromRegister(full, { duplicate: false }).readOnly;
    expect(ro).toEqual(
      expect.arrayContaining([
        'first_name',
        'last_name',
        'birth_name',
        'birth_number',
        'sex',
        'birth_date',
        'document_type',
        'document_number',
        'citizen_of_1',
        'home_street',
        'home_house_num',
        'home_org_num',
        'home_city',
        'home_zip',
        'home_state',
        'data_mailbox',
      ]),
    );
    for (const f of [
      'email',
      'telephone',
      'contact_street',
      'employer_current_name',
      'past_activities',
      'delivery_type',
    ]) {
      expect(ro).not.toContain(f);
    }
  });
  it('leaves the current names editable in duplicate mode, birth name and birth number locked', () => {
    const ro = prefillFromRegister(full, { duplicate: true }).readOnly;
    expect(ro).not.toContain('first_name');
    expect(ro).not.toContain('last_name');
    expect(ro).toContain('birth_name');
    expect(ro).toContain('birth_number');
  });
  it('leaves a register value that fails its rule editable, so that the user can correct it', () => {
    const odd = {
      ...full,
      rc: '850315/12',
      dat_schranka: 'abc',
      psc: '1'.repeat(20),
      rodne_prijm: 'A\u0000',
    };
    const ro = prefillFromRegister(odd, { duplicate: false }).readOnly;
    for (const f of ['birth_number', 'data_mailbox', 'home_zip', 'birth_name']) expect(ro).not.toContain(f);
    expect(ro).toContain('first_name');
    expect(ro).toContain('home_city');
  });
  it('does not lock a field the register left empty', () => {
    const ro = prefillFromRegister({ jmeno: 'A', prijmeni: 'B' }, { duplicate: false }).readOnly;
    expect(ro.sort()).toEqual(['first_name', 'last_name']);
  });
});

describe('prefillFromRegister: read-only by the entries’ `prefilled` (issue 34)', () => {
  // The lists prefill.ts kept before the rule moved onto the entries.
  const identity = [
    'sex',
    'birth_date',
    'birth_municipality',
    'birth_district',
    'birth_state',
    'citizen_of_1',
    'citizen_of_2',
    'other_citizenships',
    'document_type',
    'document_number',
    'data_mailbox',
  ];
  const address = ['home_street', 'home_house_num', 'home_org_num', 'home_city', 'home_zip', 'home_state'];
  const withRule = (rule: string) =>
    Object.entries(FIELDS)
      .filter(([, spec]) => spec.prefilled === rule)
      .map(([name]) => name)
      .sort();

  it('are the identity, the home address, the birth name and birth number; the current names only in a new request', () => {
    expect(withRule('readOnly')).toEqual([...identity, ...address, 'birth_name', 'birth_number'].sort());
    expect(withRule('readOnlyInNew')).toEqual(['first_name', 'last_name']);
  });

  it('make exactly those read-only that the register filled, per mode', () => {
    const all = [...identity, ...address, 'birth_name', 'birth_number'];
    expect(prefillFromRegister(full, { duplicate: false }).readOnly.sort()).toEqual(
      [...all, 'first_name', 'last_name'].sort(),
    );
    // Duplicate mode hides sex, the birth details and other citizenships; still read-only once filled.
    expect(prefillFromRegister(full, { duplicate: true }).readOnly.sort()).toEqual([...all].sort());
  });
});

describe('the match token’s bound fields (issue 34: the entries with `compareAs` and `prefilled`)', () => {
  it('are the names, birth date, birth number and document, in the catalogue’s order', () => {
    expectTypeOf<MatchBoundField>().toEqualTypeOf<
      'first_name' | 'last_name' | 'birth_date' | 'birth_number' | 'document_type' | 'document_number'
    >();
    expect(MATCH_BOUND_FIELDS).toEqual([
      'first_name',
      'last_name',
      'birth_date',
      'birth_number',
      'document_type',
      'document_number',
    ]);
  });

  it('compare each value in its entry’s form', () => {
    const person = { ...full, web_st_kod2: null, web_st5_kody: [] };
    const same = {
      first_name: ' JAN ',
      last_name: 'novak',
      birth_date: ' 1985-03-15 ',
      birth_number: '850315 / 1234',
      document_type: ' OP_CR ',
      document_number: '1234 56789',
    };
    expect(matchMismatches(person, same, { duplicate: false })).toEqual([]);
    const other = { first_name: 'Jana', birth_number: '8503151235', document_number: '123456780' };
    expect(matchMismatches(person, other, { duplicate: false })).toEqual([
      'first_name',
      'birth_number',
      'document_number',
    ]);
  });
});

describe('helpers', () => {
  it('sexFromRegister', () => {
    expect(sexFromRegister('M')).toBe('1');
    expect(sexFromRegister('1')).toBe('1');
    expect(sexFromRegister('Z')).toBe('2');
    expect(sexFromRegister('ž')).toBe('2');
    expect(sexFromRegister('2')).toBe('2');
    expect(sexFromRegister('0')).toBe('0');
    expect(sexFromRegister('?')).toBe('0');
    expect(sexFromRegister('')).toBeUndefined();
    expect(sexFromRegister(null)).toBeUndefined();
  });
  it('dateFromRegister', () => {
    expect(dateFromRegister('1950-01-02')).toBe('1950-01-02');
    expect(dateFromRegister('1950-13-02')).toBeUndefined();
    expect(dateFromRegister('2.1.1950')).toBeUndefined();
    expect(dateFromRegister(undefined)).toBeUndefined();
  });
  it('splitStreet', () => {
    expect(splitStreet('Na Příkopě 1096a')).toEqual({ street: 'Na Příkopě', house: '1096a', org: undefined });
    expect(splitStreet('Dlouhá 12 / 5')).toEqual({ street: 'Dlouhá', house: '12', org: '5' });
    expect(splitStreet('Hlavní')).toEqual({ street: 'Hlavní' });
    expect(splitStreet('  ')).toEqual({});
    expect(splitStreet('28. října 3')).toEqual({ street: '28. října', house: '3', org: undefined });
  });
});

describe('registerFormContext: the one form context of a register person', () => {
  it('knows a Czech citizen by either register citizenship', () => {
    expect(isCzechCitizen({ st_kod: 'CZ', web_st_kod2: null })).toBe(true);
    expect(isCzechCitizen({ st_kod: 'SK', web_st_kod2: ' CZ ' })).toBe(true);
    expect(isCzechCitizen({ st_kod: 'SK', web_st_kod2: 'DE' })).toBe(false);
  });

  it('a Czech second citizenship behind ## makes the birth number required, though the form has no CZ', () => {
    // The second citizenship of a stateless person is not prefilled: only the context tells.
    const person = { ...full, st_kod: '##', web_st_kod2: 'CZ', rc: null };
    const prefill = prefillFromRegister(person, { duplicate: false });
    expect(prefill.values.citizen_of_2).toBeUndefined();
    expect(prefill.context.czechCitizen).toBe(true);
    const values = { ...defaultFormValues(), ...prefill.values };
    const issues = validateFormValues(values, prefill.context, new Date('2026-01-01T12:00:00Z'));
    expect(issues).toContainEqual({ path: ['birth_number'], key: 'required' });
  });

  it('is the prefill context: read-only fields, no noPrefill, DATOVKOU with a data mailbox', () => {
    const ctx = registerFormContext(full, { duplicate: true });
    const prefill = prefillFromRegister(full, { duplicate: true });
    expect(ctx).toEqual(prefill.context);
    expect(ctx.duplicate).toBe(true);
    expect(ctx.noPrefill).toBe(false);
    expect([...ctx.readOnly].sort()).toEqual([...prefill.readOnly].sort());
    expect(ctx.dataMailboxDelivery).toBe(true);
    expect(
      registerFormContext({ ...full, dat_schranka: '  ' }, { duplicate: false }).dataMailboxDelivery,
    ).toBe(false);
  });
});

describe('a register data mailbox that fails its rule (issue 34, item 5)', () => {
  // The box is shown only when read-only or without prefill (spec): a malformed register value is
  // not locked, so the box stays hidden, and the person could neither see nor correct the value
  // whose rule fired on Finish and on submit, nor leave DATOVKOU once it was offered for it.
  const odd: RegisterPerson = { ...full, dat_schranka: 'h7k2m9', typ_predani: 'DATOVKOU' };
  const today = new Date('2026-01-01T12:00:00Z');

  it('is not carried into the form: hidden, empty, and DATOVKOU is not offered for it', () => {
    const prefill = prefillFromRegister(odd, { duplicate: false });
    expect(isDataMailboxShown(prefill.context)).toBe(false);
    expect(prefill.values.data_mailbox).toBeUndefined();
    expect(prefill.context.dataMailboxDelivery).toBe(false);
    expect(prefill.values.delivery_type).toBeUndefined();
  });

  it('leaves a form the person can send once they fill what they can see', () => {
    const prefill = prefillFromRegister(odd, { duplicate: false });
    const values = { ...defaultFormValues(), ...prefill.values, delivery_type: 'EMAIL' };
    const issues = validateFormValues(values, prefill.context, today);
    expect(issues.filter((i) => i.path[0] === 'data_mailbox' || i.path[0] === 'delivery_type')).toEqual([]);
  });

  it('still carries a valid register data mailbox, read-only, with DATOVKOU', () => {
    const prefill = prefillFromRegister({ ...odd, dat_schranka: 'h7k2m9p' }, { duplicate: false });
    expect(prefill.values.data_mailbox).toBe('h7k2m9p');
    expect(prefill.readOnly).toContain('data_mailbox');
    expect(isDataMailboxShown(prefill.context)).toBe(true);
    expect(prefill.context.dataMailboxDelivery).toBe(true);
    expect(prefill.values.delivery_type).toBe('DATOVKOU');
  });
});

describe('matchMismatches: what a match token binds (issue 21)', () => {
  const person = {
    jmeno: 'Štěpán',
    prijmeni: 'Dvořák',
    rc: '850315/1008',
    dat_nar: '1985-03-15',
    typ_op_pas: 'ID',
    op_pas: '123456789',
  };
  const own = {
    first_name: 'stepan ',
    last_name: 'DVOŘÁK',
    birth_date: '1985-03-15',
    birth_number: '8503151008',
    document_type: 'OP_CR',
    document_number: '123 456 789',
  };

  it("accepts the person's own values as the search compares them", () => {
    expect(matchMismatches(person, own, { duplicate: false })).toEqual([]);
  });

  it('names every bound field with another value; a field not sent is not compared', () => {
    const other = {
      first_name: 'Karel',
      last_name: 'Procházka',
      birth_date: '1978-07-04',
      birth_number: '780704/1000',
      document_type: 'PAS',
      document_number: '234567890',
    };
    expect(matchMismatches(person, other, { duplicate: false })).toEqual([
      'first_name',
      'last_name',
      'birth_date',
      'birth_number',
      'document_type',
      'document_number',
    ]);
    expect(matchMismatches(person, { birth_number: '780704/1000' }, { duplicate: false })).toEqual([
      'birth_number',
    ]);
  });

  it('in duplicate mode the names may change and the hidden birth date is not compared', () => {
    const renamed = { ...own, last_name: 'Nový', birth_date: '2000-01-01' };
    expect(matchMismatches(person, renamed, { duplicate: true })).toEqual([]);
    expect(matchMismatches(person, { ...renamed, birth_number: '780704/1000' }, { duplicate: true })).toEqual(
      ['birth_number'],
    );
  });
});
