import { describe, expect, it } from 'vitest';
import { applicantEmail, PERSON_IDENTITY_FIELDS, personIdentity } from './applicant.js';
import { defaultFormValues, TEXT_FIELDS } from './fields.js';
import { legalStatements } from './legalTexts/index.js';
import { validateBodySchema } from './validatePayload.js';

describe('the applicant (issue 34: one list of the identity fields)', () => {
  it('is known by text fields of the form, each of them in the validate body with its length', () => {
    for (const name of PERSON_IDENTITY_FIELDS) {
      expect(TEXT_FIELDS).toContain(name);
      expect(Object.keys(validateBodySchema.shape)).toContain(name);
    }
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
