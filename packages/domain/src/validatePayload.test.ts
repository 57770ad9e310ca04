import { describe, expect, expectTypeOf, it } from 'vitest';
import { PERSON_IDENTITY_FIELDS } from './applicant.js';
import { maxLengthFor } from './fields.js';
import { type ValidateBody, validateBodySchema } from './validatePayload.js';

const body = (over: Record<string, unknown> = {}) => ({
  first_name: 'Jan',
  last_name: 'Novák',
  birth_date: '1985-03-15',
  municipality: '554782',
  document_number: '123456789',
  birth_number: '8503151234',
  duplicate: false,
  ...over,
});

describe('validateBodySchema', () => {
  it('has the form fields lengths: a first name of 50 passes, of 51 is refused as the form refuses it', () => {
    expect(maxLengthFor('first_name')).toBe(50);
    expect(validateBodySchema.safeParse(body({ first_name: 'J'.repeat(50) })).success).toBe(true);
    expect(validateBodySchema.safeParse(body({ first_name: 'J'.repeat(51) })).success).toBe(false);
    expect(validateBodySchema.safeParse(body({ last_name: 'N'.repeat(51) })).success).toBe(false);
  });

  it('accepts what the form accepts: a foreign birth number or a place of birth abroad up to their lengths', () => {
    const long = (path: string) => 'x'.repeat(maxLengthFor(path));
    expect(validateBodySchema.safeParse(body({ birth_number: long('birth_number') })).success).toBe(true);
    expect(validateBodySchema.safeParse(body({ municipality: long('birth_municipality') })).success).toBe(
      true,
    );
    expect(validateBodySchema.safeParse(body({ birth_number: `${long('birth_number')}x` })).success).toBe(
      false,
    );
  });

  it('is the identity fields, the municipality, duplicate and match (issue 34: built from PERSON_IDENTITY_FIELDS)', () => {
    expect(Object.keys(validateBodySchema.shape).sort()).toEqual(
      [...PERSON_IDENTITY_FIELDS, 'municipality', 'duplicate', 'match'].sort(),
    );
    for (const name of PERSON_IDENTITY_FIELDS) {
      const long = 'x'.repeat(maxLengthFor(name) + 1);
      expect(validateBodySchema.safeParse(body({ [name]: long })).success, name).toBe(false);
      expect(validateBodySchema.safeParse(body({ [name]: 'a\u0000' })).success, name).toBe(false);
    }
  });

  it('requires every identity field but AIFO, which may be null or absent; the municipality and match may be absent', () => {
    const ok = (b: Record<string, unknown>) => validateBodySchema.safeParse(b).success;
    for (const name of [
      'first_name',
      'last_name',
      'birth_date',
      'birth_number',
      'document_number',
      'duplicate',
    ])
      expect(ok(body({ [name]: undefined })), name).toBe(false);
    expect(ok(body({ municipality: undefined }))).toBe(true);
    expect(ok(body({ aifo: null }))).toBe(true);
    expect(ok(body({ aifo: 'AIFO-1' }))).toBe(true);
    expect(ok(body({ aifo: 3 }))).toBe(false);
    expect(ok(body({ municipality: null }))).toBe(false);
    expect(ok(body({ birth_number: null }))).toBe(false);
    expect(ok(body({ match: 't' }))).toBe(true);
    expect(ok(body({ extra: 1 }))).toBe(false);
    expect(validateBodySchema.parse(body({ aifo: null }))).toEqual(body({ aifo: null }));
  });

  it('types its output as before: the identity texts, AIFO optional and nullable', () => {
    expectTypeOf<ValidateBody>().toEqualTypeOf<{
      first_name: string;
      last_name: string;
      birth_date: string;
      birth_number: string;
      aifo?: string | null | undefined;
      document_number: string;
      municipality?: string | undefined;
      duplicate: boolean;
      match?: string | undefined;
    }>();
  });
});
