import { describe, expect, it } from 'vitest';
import {
  defaultFormContext,
  defaultFormValues,
  FORM_FIELDS,
  type FormContext,
  type FormValues,
  maxLengthFor,
  normalizeFormValues,
} from './fields.js';
import { buildFormSchema, issuesToFieldErrors, validateFormValues } from './form.js';

const today = { year: 2025, month: 3, day: 15 };

/** A complete, valid request in normal mode. */
function valid(): FormValues {
  return {
    ...defaultFormValues(),
    first_name: 'Jan',
    last_name: 'Novák',
    birth_name: 'Novák',
    sex: '1',
    birth_date: '1985-02-23',
    birth_number: '850223/1234',
    birth_municipality: '554782',
    birth_district: '3100',
    birth_state: 'CZ',
    citizen_of_1: 'CZ',
    document_type: 'OP_CR',
    document_number: '123456789',
    home_street: 'Dlouhá',
    home_house_num: '12',
    home_city: 'Praha',
    home_zip: '110 00',
    home_state: 'CZ',
    employer_current_name: 'Letiště Praha, a. s.',
    employer_current_from: '01/2019',
    employer_current_description: 'Odbavení cestujících',
    contact_street: 'Dlouhá',
    contact_city: 'Praha',
    contact_zip: '110 00',
    contact_state: 'CZ',
    email: 'jan.novak@example.cz',
    delivery_type: 'EMAIL',
    past_activities: [{ from: '01/2015', to: '12/2018', type: '1', field1: 'ČSA', field2: 'Steward' }],
  };
}

function errors(values: FormValues, ctx: Partial<FormContext> = {}) {
  const result = buildFormSchema(defaultFormContext(ctx), today).safeParse(values);
  return result.success ? {} : issuesToFieldErrors(result.error.issues);
}

function keys(values: FormValues, ctx: Partial<FormContext> = {}) {
  return Object.fromEntries(Object.entries(errors(values, ctx)).map(([path, e]) => [path, e.key]));
}

describe('a complete request', () => {
  it('passes and comes out unchanged', () => {
    const v = valid();
    const result = buildFormSchema(defaultFormContext(), today).safeParse(v);
    expect(result.success).toBe(true);
    expect(result.data).toEqual(v);
  });
  it('the defaults carry every field, OSVEDCENI1 and +420', () => {
    const d = defaultFormValues();
    expect(Object.keys(d).sort()).toEqual([...FORM_FIELDS].sort());
    expect(d.employer_verification_type).toBe('OSVEDCENI1');
    expect(d.dial_code).toBe('+420');
    expect(FORM_FIELDS.indexOf('dial_code')).toBe(FORM_FIELDS.indexOf('telephone') - 1);
  });
  it('strips unknown keys', () => {
    const result = buildFormSchema(defaultFormContext(), today).safeParse({ ...valid(), admin: true });
    expect(result.success && 'admin' in result.data).toBe(false);
  });
});

describe('required (normal mode)', () => {
  it('the empty form fails exactly on the required fields', () => {
    expect(keys(defaultFormValues())).toEqual({
      first_name: 'required',
      last_name: 'required',
      birth_name: 'required',
      sex: 'required',
      birth_date: 'required',
      birth_municipality: 'required',
      birth_state: 'required',
      citizen_of_1: 'required',
      document_type: 'required',
      document_number: 'required',
      home_street: 'required',
      home_city: 'required',
      home_zip: 'required',
      home_state: 'required',
      employer_current_name: 'required',
      employer_current_from: 'required',
      employer_current_description: 'required',
      contact_street: 'required',
      contact_city: 'required',
      contact_zip: 'required',
      contact_state: 'required',
      email: 'required',
      delivery_type: 'required',
    });
  });
  it('whitespace counts as empty', () => {
    expect(keys({ ...valid(), first_name: '   ' })).toEqual({ first_name: 'required' });
  });
  it('birth_district only for a birth in CZ', () => {
    expect(keys({ ...valid(), birth_district: '' })).toEqual({ birth_district: 'required' });
    expect(
      keys({ ...valid(), birth_state: 'SK', birth_district: '', birth_municipality: 'Bratislava' }),
    ).toEqual({});
  });
  it('data_mailbox only for DATOVKOU, with or without prefill', () => {
    expect(keys({ ...valid(), delivery_type: 'DATOVKOU' })).toEqual({ data_mailbox: 'required' });
    expect(keys({ ...valid(), delivery_type: 'DATOVKOU' }, { noPrefill: true })).toEqual({
      data_mailbox: 'required',
    });
    expect(keys(valid(), { noPrefill: true })).toEqual({});
    expect(keys({ ...valid(), delivery_type: 'DATOVKOU', data_mailbox: 'abc12de' })).toEqual({});
  });
  it('duplicate_type is not required outside duplicate mode', () => {
    expect(keys({ ...valid(), duplicate_type: [] })).toEqual({});
  });
});

describe('maximum lengths', () => {
  it('reports maxlength with { max } at the limit + 1 and accepts the limit', () => {
    expect(keys({ ...valid(), first_name: 'a'.repeat(50) })).toEqual({});
    const e = errors({ ...valid(), first_name: 'a'.repeat(51) });
    expect(e).toEqual({ first_name: { key: 'maxlength', params: { max: 50 } } });
  });
  it.each([
    ['home_zip', 11],
    ['home_house_num', 10],
    ['contact_org_num', 10],
    ['home_city', 80],
    ['contact_company', 240],
    ['telephone', 80],
    ['document_number', 240],
  ] as const)('%s: %i', (field, max) => {
    expect(keys({ ...valid(), [field]: '1'.repeat(max) })[field]).not.toBe('maxlength');
    expect(errors({ ...valid(), [field]: '1'.repeat(max + 1) })[field]).toEqual({
      key: 'maxlength',
      params: { max },
    });
  });
  it('covers rows, abroad reason 3993 and the 6-row limit', () => {
    const row = { state: 'DE', reason: 'x'.repeat(3993) };
    expect(keys({ ...valid(), abroad_stay: [row] })).toEqual({});
    expect(errors({ ...valid(), abroad_stay: [{ ...row, reason: 'x'.repeat(3994) }] })).toEqual({
      'abroad_stay.0.reason': { key: 'maxlength', params: { max: 3993 } },
    });
    expect(keys({ ...valid(), abroad_stay: new Array(6).fill(row) })).toEqual({});
    expect(errors({ ...valid(), abroad_stay: new Array(7).fill(row) })).toEqual({
      abroad_stay: { key: 'maxlength', params: { max: 6 } },
    });
    const activity = {
      from: '01/2015',
      to: '12/2018',
      type: '1' as const,
      field1: 'x'.repeat(241),
      field2: 'y',
    };
    expect(errors({ ...valid(), past_activities: [activity] })).toEqual({
      'past_activities.0.field1': { key: 'maxlength', params: { max: 240 } },
    });
  });
  it('maxLengthFor finds the limit by issue path', () => {
    expect(maxLengthFor('first_name')).toBe(50);
    expect(maxLengthFor('past_activities.3.field2')).toBe(240);
    expect(maxLengthFor(['abroad_stay', 0, 'reason'])).toBe(3993);
    expect(maxLengthFor('abroad_stay')).toBe(6);
    expect(maxLengthFor('aifo')).toBe(240);
  });
});

describe('formats', () => {
  it('e-mail', () => {
    expect(keys({ ...valid(), email: 'jan@novak' })).toEqual({ email: 'email' });
    expect(keys({ ...valid(), email: 'jan+ros@mail.example.cz' })).toEqual({});
  });
  it('telephone is optional but checked when filled', () => {
    expect(keys({ ...valid(), telephone: '603 123 456' })).toEqual({});
    expect(keys({ ...valid(), telephone: '60312345' })).toEqual({ telephone: 'phoneInvalidLength' });
    expect(keys({ ...valid(), telephone: '+420603123456' })).toEqual({ telephone: 'phoneInvalidPattern' });
  });
  it('dial_code: required with a telephone, a calling code, one of the list when given', () => {
    const phone = { ...valid(), telephone: '603 123 456' };
    expect(keys({ ...phone, dial_code: '+421' })).toEqual({});
    expect(keys({ ...phone, dial_code: '' })).toEqual({ dial_code: 'required' });
    expect(keys({ ...phone, dial_code: '  ' })).toEqual({ dial_code: 'required' });
    expect(keys({ ...phone, dial_code: '420' })).toEqual({ dial_code: 'pattern' });
    expect(keys({ ...phone, dial_code: '+999' })).toEqual({});
    const dialCodes = new Set(['+420', '+421']);
    expect(keys({ ...phone, dial_code: '+999' }, { dialCodes })).toEqual({ dial_code: 'pattern' });
    expect(keys({ ...phone, dial_code: '+421' }, { dialCodes })).toEqual({});
    // Also in duplicate mode (the contact details are shown there too).
    expect(keys({ ...phone, dial_code: '' }, { duplicate: true, readOnly: new Set() })).toMatchObject({
      dial_code: 'required',
    });
    // Reported before the telephone's own error, in field order.
    expect(Object.keys(errors({ ...phone, telephone: '12', dial_code: 'x' }))).toEqual([
      'dial_code',
      'telephone',
    ]);
  });
  it('dial_code without a telephone: empty allowed, anything else ignored (not stored)', () => {
    expect(keys({ ...valid(), telephone: '', dial_code: '' })).toEqual({});
    expect(keys({ ...valid(), telephone: ' ', dial_code: 'x' }, { dialCodes: new Set(['+420']) })).toEqual(
      {},
    );
    expect(keys({ ...valid(), dial_code: '+'.repeat(241) })).toEqual({ dial_code: 'maxlength' });
  });
  it('data_mailbox is checked when filled', () => {
    expect(keys({ ...valid(), data_mailbox: 'abc12' })).toEqual({ data_mailbox: 'dataMailboxLength' });
    expect(keys({ ...valid(), data_mailbox: 'abc_2de' })).toEqual({
      data_mailbox: 'dataMailboxAlphanumeric',
    });
  });
  it('birth_date', () => {
    expect(keys({ ...valid(), birth_date: '23.02.1985' })).toEqual({ birth_date: 'pattern' });
    expect(keys({ ...valid(), birth_date: '1925-03-14', birth_number: '250314/123' })).toEqual({
      birth_date: 'birthDateTooOld',
    });
    expect(keys({ ...valid(), birth_date: '5' })).toEqual({ birth_date: 'dateIncomplete' });
    expect(keys({ ...valid(), birth_date: '1925-03-15', birth_number: '250315/123' })).toEqual({});
  });
  it('sex and activity type accept only their codes', () => {
    const result = buildFormSchema(defaultFormContext(), today).safeParse({ ...valid(), sex: 'M' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('pattern');
    expect(result.error?.issues[0]?.path).toEqual(['sex']);
  });
});

describe('birth number', () => {
  it('is required and checked when either citizenship is CZ', () => {
    expect(keys({ ...valid(), birth_number: '' })).toEqual({ birth_number: 'required' });
    expect(keys({ ...valid(), citizen_of_1: 'SK', citizen_of_2: 'CZ', birth_number: '' })).toEqual({
      birth_number: 'required',
    });
    expect(keys({ ...valid(), birth_number: '851323/1234' })).toEqual({
      birth_number: 'birthNumberInvalidFormat',
    });
  });
  it('is optional and unchecked for a foreigner', () => {
    expect(keys({ ...valid(), citizen_of_1: 'SK', birth_number: '' })).toEqual({});
    expect(keys({ ...valid(), citizen_of_1: 'SK', birth_number: 'SK-123' })).toEqual({});
  });
  it('is required for a person the context knows as Czech', () => {
    expect(keys({ ...valid(), citizen_of_1: 'SK', birth_number: '' }, { czechCitizen: true })).toEqual({
      birth_number: 'required',
    });
  });
  it('must agree with the birth date', () => {
    expect(keys({ ...valid(), birth_number: '855223/1234' })).toEqual({});
    expect(keys({ ...valid(), birth_number: '850224/1234' })).toEqual({
      birth_number: 'birthNumberInvalidDay',
    });
    expect(keys({ ...valid(), birth_number: '850323/1234' })).toEqual({
      birth_number: 'birthNumberInvalidMonth',
    });
    expect(keys({ ...valid(), birth_number: '860223/1234' })).toEqual({
      birth_number: 'birthNumberInvalidYear',
    });
  });
  it('is not compared with an invalid birth date', () => {
    expect(keys({ ...valid(), birth_date: '1985-02-30', birth_number: '860223/1234' })).toEqual({
      birth_date: 'pattern',
    });
  });
});

describe('month/year fields', () => {
  it('current employer: up to 6 months ahead', () => {
    expect(keys({ ...valid(), employer_current_from: '09/2025' })).toEqual({});
    expect(keys({ ...valid(), employer_current_from: '10/2025' })).toEqual({
      employer_current_from: 'monthDateFarFutureDate',
    });
    expect(keys({ ...valid(), employer_current_from: '2019' })).toEqual({
      employer_current_from: 'monthDateInvalidPattern',
    });
  });
  it('past activity from/to: pattern, month, year, future, order', () => {
    const row = valid().past_activities[0];
    if (!row) throw new Error('fixture');
    const check = (from: string, to: string) => keys({ ...valid(), past_activities: [{ ...row, from, to }] });
    expect(check('1/2015', '12/2018')).toEqual({});
    expect(check('2015', '12/2018')).toEqual({ 'past_activities.0.from': 'monthDateInvalidPattern' });
    expect(check('13/2015', '12/2018')).toEqual({ 'past_activities.0.from': 'monthDateInvalidMonth' });
    expect(check('01/1899', '12/2018')).toEqual({ 'past_activities.0.from': 'monthDateInvalidYear' });
    expect(check('01/2015', '04/2025')).toEqual({ 'past_activities.0.to': 'monthDateFutureDate' });
    expect(check('01/2015', '03/2025')).toEqual({});
    expect(check('01/2019', '12/2018')).toEqual({ 'past_activities.0.to': 'fromToDate' });
    expect(check('12/2018', '12/2018')).toEqual({});
  });
});

describe('rows', () => {
  it('every past-activity field is required, field2 not for type 3', () => {
    const empty = { from: '', to: '', type: '' as const, field1: '', field2: '' };
    expect(keys({ ...valid(), past_activities: [empty] })).toEqual({
      'past_activities.0.from': 'required',
      'past_activities.0.to': 'required',
      'past_activities.0.type': 'required',
      'past_activities.0.field1': 'required',
      'past_activities.0.field2': 'required',
    });
    const other = { from: '01/2015', to: '12/2018', type: '3' as const, field1: 'Sabbatical', field2: '' };
    expect(keys({ ...valid(), past_activities: [other] })).toEqual({});
  });
  it('both stay-abroad fields are required', () => {
    expect(keys({ ...valid(), abroad_stay: [{ state: '', reason: '' }] })).toEqual({
      'abroad_stay.0.state': 'required',
      'abroad_stay.0.reason': 'required',
    });
  });
});

describe('duplicate mode', () => {
  const dup = { duplicate: true };
  function duplicateRequest(): FormValues {
    return {
      ...valid(),
      sex: '',
      birth_date: '',
      birth_state: '',
      birth_municipality: '',
      birth_district: '',
      employer_current_name: '',
      employer_current_from: '',
      employer_current_description: '',
      past_activities: [{ from: '', to: '', type: '', field1: '', field2: '' }],
      abroad_stay: [{ state: '', reason: '' }],
      duplicate_type: ['POSKOZENI'],
    };
  }
  it('does not require what it hides', () => {
    expect(keys(duplicateRequest(), dup)).toEqual({});
  });
  it('does not check hidden fields left over from prefill', () => {
    expect(keys({ ...duplicateRequest(), employer_current_from: '99/2019', birth_date: 'x' }, dup)).toEqual(
      {},
    );
  });
  it('requires duplicate_type', () => {
    expect(keys({ ...duplicateRequest(), duplicate_type: [] }, dup)).toEqual({ duplicate_type: 'required' });
  });
  it('rejects POSKOZENI with ODCIZENI', () => {
    expect(keys({ ...duplicateRequest(), duplicate_type: ['POSKOZENI', 'ODCIZENI'] }, dup)).toEqual({
      duplicate_type: 'pattern',
    });
    expect(keys({ ...duplicateRequest(), duplicate_type: ['ODCIZENI', 'ZMENA'] }, dup)).toEqual({});
  });
  it('still requires the identity, address and contact fields', () => {
    expect(keys({ ...duplicateRequest(), first_name: '', email: '' }, dup)).toEqual({
      first_name: 'required',
      email: 'required',
    });
  });
});

describe('read-only fields', () => {
  it('get every rule: a value equal to the register is not trusted (issue 11)', () => {
    const readOnly = new Set(['birth_number', 'telephone'] as const);
    expect(keys({ ...valid(), birth_number: '860223/1234', telephone: '+420 603' }, { readOnly })).toEqual({
      birth_number: 'birthNumberInvalidYear',
      telephone: 'phoneInvalidPattern',
    });
    expect(keys({ ...valid(), birth_number: '' }, { readOnly })).toEqual({ birth_number: 'required' });
    expect(keys({ ...valid(), telephone: '1'.repeat(81) }, { readOnly })).toEqual({ telephone: 'maxlength' });
  });
});

describe('hand-made requests (server)', () => {
  it('reports a missing field as required and a wrong type as pattern', () => {
    const { email: _omit, ...rest } = valid();
    const result = buildFormSchema(defaultFormContext(), today).safeParse({ ...rest, first_name: 42 });
    expect(result.success).toBe(false);
    const e = issuesToFieldErrors(result.error?.issues ?? []);
    expect(e.email?.key).toBe('required');
    expect(e.first_name?.key).toBe('pattern');
  });
  it('never throws on garbage', () => {
    const schema = buildFormSchema(defaultFormContext(), today);
    for (const input of [null, undefined, 'x', 42, [], { past_activities: 'x' }, { abroad_stay: [null] }]) {
      expect(schema.safeParse(input).success).toBe(false);
    }
  });
  it('uses only the spec message keys', () => {
    const result = buildFormSchema(defaultFormContext(), today).safeParse({});
    const e = issuesToFieldErrors(result.error?.issues ?? []);
    expect(Object.keys(e).length).toBeGreaterThan(30);
    for (const error of Object.values(e)) expect(['required', 'pattern']).toContain(error.key);
  });
});

describe('determinism', () => {
  it('depends on the given day, not the clock', () => {
    const v = { ...valid(), employer_current_from: '09/2025' };
    expect(validateFormValues(v, defaultFormContext(), today)).toEqual([]);
    expect(validateFormValues(v, defaultFormContext(), { year: 2025, month: 2, day: 28 })).toEqual([
      { path: ['employer_current_from'], key: 'monthDateFarFutureDate' },
    ]);
  });
  it('the zod issue carries the params for maxlength', () => {
    const result = buildFormSchema(defaultFormContext(), today).safeParse({
      ...valid(),
      last_name: 'x'.repeat(60),
    });
    const issue = result.error?.issues[0];
    expect(issue?.message).toBe('maxlength');
    expect(issue?.path).toEqual(['last_name']);
    expect((issue as { params?: unknown } | undefined)?.params).toEqual({ max: 50 });
  });
});

describe('normalizeFormValues', () => {
  it('prepares values for storage', () => {
    const n = normalizeFormValues({
      ...valid(),
      first_name: '  Jan ',
      telephone: '603 123 456',
      birth_number: '850223 / 1234',
      employer_current_from: '1/2019',
      citizen_of_1: '##',
      citizen_of_2: 'CZ',
      birth_state: 'SK',
      birth_district: '3100',
      past_activities: [{ from: '1/2015', to: '3/2018', type: '3', field1: ' x ', field2: 'left over' }],
      send_notifications_phone: true,
    });
    expect(n.first_name).toBe('Jan');
    expect(n.telephone).toBe('603123456');
    expect(n.birth_number).toBe('8502231234');
    expect(n.employer_current_from).toBe('01/2019');
    expect(n.citizen_of_2).toBe('');
    expect(n.birth_district).toBe('');
    expect(n.past_activities).toEqual([
      { from: '01/2015', to: '03/2018', type: '3', field1: 'x', field2: '' },
    ]);
    expect(n.send_notifications_phone).toBe(true);
    expect(normalizeFormValues({ ...valid(), send_notifications_phone: true }).send_notifications_phone).toBe(
      false,
    );
  });
  it('keeps the dial code with a telephone and empties it without one', () => {
    expect(normalizeFormValues({ ...valid(), telephone: '603123456', dial_code: ' +421 ' }).dial_code).toBe(
      '+421',
    );
    expect(normalizeFormValues({ ...valid(), telephone: ' ', dial_code: '+421' }).dial_code).toBe('');
  });
});
