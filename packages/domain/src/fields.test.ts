import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Catalogue,
  catalogueEntries,
  codedValues,
  defaultFormContext,
  defaultFormValues,
  FIELDS,
  FORM_FIELDS,
  type FormFieldName,
  type FormValues,
  fieldSpec,
  isFieldReadOnly,
  isMultiline,
  maxLengthFor,
  type PrintedFieldName,
  printedFields,
  sectionFields,
  specOrder,
  TEXT_FIELDS,
} from './fields.js';
import { DEFAULT_MAX_LENGTH, MAX_ABROAD_STAYS } from './limits.js';

const values = (over: Partial<FormValues> = {}): FormValues => ({ ...defaultFormValues(), ...over });

/** Spec section 5's maximum lengths, by the last part of a path (`reason`: a stay abroad's). */
const SPEC_LENGTHS: Record<string, number> = {
  first_name: 50,
  last_name: 50,
  birth_name: 50,
  birth_municipality: 240,
  birth_district: 240,
  home_street: 80,
  contact_street: 80,
  home_house_num: 10,
  home_org_num: 10,
  contact_house_num: 10,
  contact_org_num: 10,
  home_city: 80,
  contact_city: 80,
  home_zip: 11,
  contact_zip: 11,
  employer_current_name: 240,
  employer_current_description: 240,
  contact_company: 240,
  telephone: 80,
  email: 240,
  document_number: 240,
  field1: 240,
  field2: 240,
  reason: 3993,
};

describe('the field catalogue', () => {
  it('gives every entry its own place in the spec order: texts, then lists, rows and booleans', () => {
    const places = Object.values(FIELDS).map((spec) => spec.specPlace);
    expect(places.every((p) => Number.isInteger(p))).toBe(true);
    expect(new Set(places).size).toBe(places.length);
    expect([...FORM_FIELDS].sort()).toEqual(Object.keys(FIELDS).sort());
    const sorts = FORM_FIELDS.map((name) => ['items', 'rows', 'boolean'].indexOf(FIELDS[name].kind));
    expect(sorts).toEqual([...sorts].sort((a, b) => a - b));
    expect(FORM_FIELDS.indexOf('dial_code')).toBe(FORM_FIELDS.indexOf('telephone') - 1);
    // A field the spec does not name (no place) comes after those it names.
    const more = { ...FIELDS, pet_name: { kind: 'text', maxLength: 20 } } as const;
    expect(specOrder(more)).toEqual([...FORM_FIELDS, 'pet_name']);
  });

  it('gives the defaults and the text fields (issue 34: derived, not restated)', () => {
    const defaults = defaultFormValues();
    expect(Object.keys(defaults)).toEqual([...FORM_FIELDS]);
    const filled = Object.entries(defaults).filter(([, v]) => v !== '' && v !== false && !Array.isArray(v));
    expect(filled).toEqual([
      ['employer_verification_type', 'OSVEDCENI1'],
      ['dial_code', '+420'],
    ]);
    for (const name of ['other_citizenships', 'duplicate_type', 'past_activities', 'abroad_stay'] as const)
      expect(defaults[name]).toEqual([]);
    expect(defaults.send_notifications_email).toBe(false);
    expect(defaultFormValues().past_activities).not.toBe(defaults.past_activities);
    expect(TEXT_FIELDS).toEqual(FORM_FIELDS.filter((name) => typeof defaults[name] === 'string'));
    expect(TEXT_FIELDS).toHaveLength(38);
  });

  it('gives every string value a kind and a maximum length, the spec lengths where it has them', () => {
    for (const { path, spec } of catalogueEntries()) {
      if (spec.kind === 'boolean') continue;
      expect(spec.maxLength, path).toBeGreaterThan(0);
      const leaf = path.split('.').pop() as string;
      const spec5 = SPEC_LENGTHS[leaf];
      expect(spec.maxLength, path).toBe(spec5 ?? DEFAULT_MAX_LENGTH);
    }
  });

  it('knows which fields are countries and which code list a field takes its codes from', () => {
    const kinds = Object.fromEntries(
      catalogueEntries().map(({ path, spec }) => [
        path,
        spec.kind === 'list' ? `list:${spec.list}` : spec.kind,
      ]),
    );
    expect(kinds).toMatchObject({
      birth_state: 'country',
      citizen_of_1: 'country',
      citizen_of_2: 'country',
      'other_citizenships.*': 'country',
      home_state: 'country',
      contact_state: 'country',
      'abroad_stay.*.state': 'country',
      birth_municipality: 'municipality',
      birth_district: 'district',
      document_type: 'list:document-types',
      delivery_type: 'list:delivery-types',
      dial_code: 'list:dial-codes',
      employer_verification_type: 'list:verification-types',
      'duplicate_type.*': 'list:duplicate-types',
      sex: 'choice',
      'past_activities.*.type': 'choice',
      birth_date: 'date',
      employer_current_from: 'monthYear',
      'past_activities.*.from': 'monthYear',
      first_name: 'text',
      send_notifications_email: 'boolean',
    });
  });

  it('finds the entry of an issue path', () => {
    expect(fieldSpec('first_name')).toBe(FIELDS.first_name);
    expect(fieldSpec('other_citizenships')).toBe(FIELDS.other_citizenships);
    expect(fieldSpec('other_citizenships.3')).toBe(FIELDS.other_citizenships.item);
    expect(fieldSpec(['past_activities', 2, 'field2'])).toBe(FIELDS.past_activities.columns.field2);
    expect(fieldSpec('past_activities.field2')).toBe(FIELDS.past_activities.columns.field2);
    expect(fieldSpec('past_activities.0.nope')).toBeUndefined();
    expect(fieldSpec('nope')).toBeUndefined();
    expect(fieldSpec('toString')).toBeUndefined();
  });

  it('maxLengthFor reads the catalogue: a text its length, a list its items', () => {
    expect(maxLengthFor('first_name')).toBe(50);
    expect(maxLengthFor('abroad_stay')).toBe(MAX_ABROAD_STAYS);
    expect(maxLengthFor('abroad_stay.1.reason')).toBe(3993);
    expect(maxLengthFor('other_citizenships.0')).toBe(DEFAULT_MAX_LENGTH);
    expect(maxLengthFor('unknown')).toBe(DEFAULT_MAX_LENGTH);
  });

  it('the stay-abroad reason is the one multi-line text', () => {
    const multiline = catalogueEntries().filter(({ path }) => isMultiline(path.replace('*', '0')));
    expect(multiline.map((e) => e.path)).toEqual(['abroad_stay.*.reason']);
  });

  it('says when a field is off by the condition functions', () => {
    const { birth_municipality, birth_district, citizen_of_2, dial_code, data_mailbox } = FIELDS;
    expect(birth_municipality.freeText?.(values({ birth_state: 'CZ' }))).toBe(false);
    expect(birth_municipality.freeText?.(values({ birth_state: 'SK' }))).toBe(true);
    expect(birth_district.enabled?.(values({ birth_state: 'CZ' }))).toBe(true);
    expect(birth_district.enabled?.(values({ birth_state: 'DE' }))).toBe(false);
    expect(citizen_of_2.enabled?.(values({ citizen_of_1: '##' }))).toBe(false);
    expect(citizen_of_2.enabled?.(values({ citizen_of_1: 'SK' }))).toBe(true);
    expect(dial_code.enabled?.(values({ telephone: '' }))).toBe(false);
    expect(
      FIELDS.past_activities.columns.field2.enabled?.({
        ...values().past_activities[0],
        from: '',
        to: '',
        type: '3',
        field1: '',
        field2: '',
      }),
    ).toBe(false);
    expect(data_mailbox.enabled).toBeUndefined();
    expect(isFieldReadOnly('sex', defaultFormContext({ readOnly: new Set(['sex']) }))).toBe(true);
  });
});

describe('the printed fields', () => {
  // Every field but the dialog's choices, the rows (printed by column) and the dial code and AIFO
  // (print: 'none'): the PDF labels are a record over these names (server pdf/labels.ts).
  const notPrinted = [
    'dial_code',
    'aifo',
    'send_notifications_email',
    'send_notifications_phone',
    'past_activities',
    'abroad_stay',
  ] as const;

  it('are the same names in the type and at run time', () => {
    expectTypeOf<PrintedFieldName>().toEqualTypeOf<Exclude<FormFieldName, (typeof notPrinted)[number]>>();
    const names: readonly string[] = notPrinted;
    expect(printedFields()).toEqual(Object.keys(FIELDS).filter((name) => !names.includes(name)));
  });

  it('of a catalogue with a field more include it', () => {
    const catalogue = { ...FIELDS, pet_name: { kind: 'text', maxLength: 20, section: 'contact' } } as const;
    expect(printedFields(catalogue)).toContain('pet_name');
    expect(printedFields({ ...catalogue, pet_name: { ...catalogue.pet_name, print: 'none' } })).not.toContain(
      'pet_name',
    );
  });
});

describe('codedValues', () => {
  const filled = values({
    birth_state: 'CZ',
    birth_municipality: '554782',
    birth_district: '40924',
    citizen_of_1: '##',
    citizen_of_2: 'SK',
    other_citizenships: ['DE'],
    document_type: 'OP_CR',
    dial_code: '+420',
    telephone: '',
    delivery_type: 'EMAIL',
    duplicate_type: ['POSKOZENI'],
    sex: '1',
    past_activities: [{ from: '01/2020', to: '02/2020', type: '3', field1: 'x', field2: 'y' }],
    abroad_stay: [{ state: 'AT', reason: 'r' }],
  });

  it('lists the filled codes of the fields that are on, in a new request', () => {
    expect(codedValues(filled, { duplicate: false }).map((c) => `${c.path}=${c.code}`)).toEqual([
      'sex=1',
      'birth_municipality=554782',
      'birth_district=40924',
      'birth_state=CZ',
      'citizen_of_1=##',
      'document_type=OP_CR',
      'employer_verification_type=OSVEDCENI1',
      'delivery_type=EMAIL',
      'other_citizenships.0=DE',
      'past_activities.0.type=3',
      'abroad_stay.0.state=AT',
    ]);
  });

  it('leaves out what duplicate mode hides, and a municipality typed as free text', () => {
    const dup = codedValues(filled, { duplicate: true }).map((c) => c.path);
    expect(dup).toEqual(['citizen_of_1', 'document_type', 'delivery_type', 'duplicate_type.0']);
    const abroad = codedValues(values({ birth_state: 'SK', birth_municipality: 'Bratislava' }), {
      duplicate: false,
    });
    expect(abroad.map((c) => c.path)).toEqual(['birth_state', 'employer_verification_type']);
  });
});

describe('sectionFields: the boxes of a section, in the page order', () => {
  it('leaves out what the form has no box for and what the mode hides', () => {
    expect(sectionFields('employer', { duplicate: false })).toEqual([
      'employer_current_name',
      'employer_current_from',
      'employer_verification_type',
      'employer_current_description',
    ]);
    expect(sectionFields('personal', { duplicate: false })).toContain('sex');
    expect(sectionFields('personal', { duplicate: true })).toEqual(['first_name', 'last_name', 'birth_name']);
    expect(sectionFields('identity', { duplicate: true })).not.toContain('other_citizenships');
  });
  it('holds a catalogue’s added field at its place', () => {
    const catalogue = {
      ...FIELDS,
      pet_name: { kind: 'text', maxLength: 20, section: 'contact' },
    } as Catalogue;
    expect(sectionFields('contact', { duplicate: false }, catalogue).at(-1)).toBe('pet_name');
  });
});
