import { describe, expect, it } from 'vitest';
import {
  formDocumentType,
  registerDocumentType,
  searchByBirthNumberSchema,
  searchByDocumentSchema,
} from './search.js';

const valid = { first_name: 'Jan', last_name: 'Novák', type: 'OP_CR', number: '123456789' };
const messages = (r: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => r.error?.issues.map((i) => `${i.path.join('.')}:${i.message}`) ?? [];

describe('document types', () => {
  it('maps register types to form types (ID -> OP_CR, P -> PAS, otherwise PAS)', () => {
    expect(formDocumentType('ID')).toBe('OP_CR');
    expect(formDocumentType('P')).toBe('PAS');
    expect(formDocumentType('X')).toBe('PAS');
    expect(formDocumentType(null)).toBe('PAS');
    expect(formDocumentType(undefined)).toBe('PAS');
  });
  it('maps form types back to register types', () => {
    expect(registerDocumentType('OP_CR')).toBe('ID');
    expect(registerDocumentType('PAS')).toBe('P');
  });
});

describe('searchByDocumentSchema', () => {
  it('accepts a full payload and trims the texts', () => {
    const r = searchByDocumentSchema().parse({
      ...valid,
      first_name: '  Jan ',
      duplicate: true,
      birth_number: '',
    });
    expect(r).toEqual({ ...valid, duplicate: true, birth_number: undefined });
  });
  it('keeps a valid birth number', () => {
    expect(searchByDocumentSchema().parse({ ...valid, birth_number: '905512/1234' }).birth_number).toBe(
      '905512/1234',
    );
  });
  it('refuses control characters and bidirectional overrides (text policy)', () => {
    const r = searchByDocumentSchema().safeParse({ ...valid, first_name: 'Ja\u0000n', number: '12\u202E3' });
    expect(messages(r).sort()).toEqual(['first_name:invalidCharacters', 'number:invalidCharacters']);
  });
  it('requires every field', () => {
    const r = searchByDocumentSchema().safeParse({});
    expect(messages(r).sort()).toEqual([
      'first_name:required',
      'last_name:required',
      'number:required',
      'type:required',
    ]);
  });
  it('refuses blank names', () => {
    expect(messages(searchByDocumentSchema().safeParse({ ...valid, last_name: '   ' }))).toEqual([
      'last_name:required',
    ]);
  });
  it('refuses too long values', () => {
    expect(messages(searchByDocumentSchema().safeParse({ ...valid, first_name: 'a'.repeat(51) }))).toEqual([
      'first_name:maxlength',
    ]);
    expect(searchByDocumentSchema().safeParse({ ...valid, first_name: 'a'.repeat(50) }).success).toBe(true);
    expect(messages(searchByDocumentSchema().safeParse({ ...valid, number: '1'.repeat(241) }))).toEqual([
      'number:maxlength',
    ]);
  });
  it('refuses wrong types and unknown document types', () => {
    expect(searchByDocumentSchema().safeParse({ ...valid, first_name: 5 }).success).toBe(false);
    expect(searchByDocumentSchema().safeParse({ ...valid, type: 'ID' }).success).toBe(false);
    expect(searchByDocumentSchema().safeParse({ ...valid, duplicate: 'yes' }).success).toBe(false);
  });
  it('refuses extra fields', () => {
    const r = searchByDocumentSchema().safeParse({ ...valid, admin: true });
    expect(r.success).toBe(false);
  });
  it('refuses a malformed birth number', () => {
    expect(messages(searchByDocumentSchema().safeParse({ ...valid, birth_number: '12' }))).toEqual([
      'birth_number:birthNumberInvalidFormat',
    ]);
  });
});

describe('birth number format', () => {
  it.each([
    '905512/1234',
    '9055121234',
    '530101/123', // before 1954: 3 digits
    '905212/1234', // woman: month + 50
    '902212/1234', // month + 20
    '907212/1234', // month + 70
    '901231/1234',
    '901231 / 1234',
  ])('accepts %s', (v) => {
    expect(searchByBirthNumberSchema().safeParse({ birth_number: v }).success).toBe(true);
  });
  it.each([
    '901312/1234', // month 13
    '900012/1234', // month 00
    '904012/1234', // month 40
    '900132/1234', // day 32
    '900100/1234', // day 00
    '90010/11234',
    '900101-1234',
    '900101/12',
    '900101/1',
  ])('refuses %s', (v) => {
    expect(messages(searchByBirthNumberSchema().safeParse({ birth_number: v }))).toEqual([
      'birth_number:birthNumberInvalidFormat',
    ]);
  });
  it('reports a too long birth number once, as maxlength', () => {
    expect(
      messages(searchByBirthNumberSchema().safeParse({ birth_number: '900101 / 1234 567890x' })),
    ).toEqual(['birth_number:maxlength']);
  });
  it('requires the birth number and refuses extra fields', () => {
    expect(messages(searchByBirthNumberSchema().safeParse({}))).toEqual(['birth_number:required']);
    expect(searchByBirthNumberSchema().safeParse({ birth_number: '905512/1234', x: 1 }).success).toBe(false);
  });
});
