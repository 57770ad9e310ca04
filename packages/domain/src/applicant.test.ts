import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  applicantEmail,
  PERSON_IDENTITY_FIELDS,
  PERSON_KEYS,
  type PersonIdentityField,
  personIdentity,
  personKeyValues,
} from './applicant.js';
import { comparedValue, defaultFormValues, TEXT_FIELDS } from './fields.js';
import { legalStatements } from './legalTexts/index.js';
import { validateBodySchema } from './validatePayload.js';

describe('the applicant (issue 34: one list of the identity fields)', () => {
  it('is known by text fields of the form, each of them in the validate body with its length', () => {
    for (const name of PERSON_IDENTITY_FIELDS) {
      expect(TEXT_FIELDS).toContain(name);
      expect(Object.keys(validateBodySchema.shape)).toContain(name);
    }
  });

  it('keeps the identity’s order (a request without a key is keyed by a hash of it) and its keys’ fields', () => {
    expectTypeOf<PersonIdentityField>().toEqualTypeOf<
      'first_name' | 'last_name' | 'birth_date' | 'birth_number' | 'aifo' | 'document_number'
    >();
    expect(PERSON_IDENTITY_FIELDS).toEqual([
      'first_name',
      'last_name',
      'birth_date',
      'birth_number',
      'aifo',
      'document_number',
    ]);
    expect(PERSON_KEYS.map((k) => `${k.kind}:${k.fields.join(',')}`)).toEqual([
      'rc:birth_number',
      'aifo:aifo',
      'ndd:first_name,last_name,birth_date,document_number',
    ]);
    expect(PERSON_KEYS.flatMap((k) => k.fields).sort()).toEqual([...PERSON_IDENTITY_FIELDS].sort());
  });

  it('compares a key’s fields each in its entry’s form (compareAs)', () => {
    const [rc, aifo, ndd] = PERSON_KEYS;
    const id = {
      first_name: ' Žofie  Anna ',
      last_name: 'ŘEHÁKOVÁ',
      birth_date: ' 1992-11-23 ',
      birth_number: ' 926123 / 0006 ',
      aifo: ' A1 ',
      document_number: ' ab 12 ',
    };
    expect(rc && personKeyValues(rc, id)).toEqual(['9261230006']);
    expect(aifo && personKeyValues(aifo, id)).toEqual(['A1']);
    expect(ndd && personKeyValues(ndd, id)).toEqual(['zofie anna', 'rehakova', '1992-11-23', 'AB12']);
    expect(ndd && personKeyValues(ndd, { first_name: null })).toEqual(['', '', '', '']);
    expect(comparedValue('document_type', ' OP_CR ')).toBe('OP_CR');
  });

  it('takes the identity of any values that hold it, a missing or null one as empty', () => {
    const values = { ...defaultFormValues(), first_name: 'Jan', birth_number: '8503151008', email: 'a@b.cz' };
    expect(personIdentity(values)).toEqual({
      first_name: 'Jan',
      last_name: '',
      birth_date: '',
      birth_number: '8503151008',
      aifo: '',
      document_number: '',
    });
    expect(personIdentity({ first_name: 'Jan', aifo: null }).aifo).toBe('');
  });

  it('is written to at the e-mail address given, trimmed; the legal texts fill in the same', () => {
    expect(applicantEmail({ email: '  a@b.cz ' })).toBe('a@b.cz');
    expect(applicantEmail({})).toBe('');
    const statements = legalStatements(
      '1',
      'en',
      { channel: 'paper', duplicate: false },
      {
        email: ' a@b.cz ',
        telephone: '',
      },
    );
    expect(statements.find((s) => s.key === 'notify_email')?.text).toContain('at a@b.cz.');
  });
});
