import { describe, expect, it } from 'vitest';
import {
  ALERT_TIMEOUT_MS,
  BIRTH_DATE_RANGE_YEARS,
  COVERAGE_WINDOW_MONTHS,
  DATA_MAILBOX_LENGTH,
  EMPLOYER_START_MAX_MONTHS_AHEAD,
  MAX_ABROAD_STAYS,
  MAX_LENGTHS,
  MAX_UNCOVERED_MONTHS,
  TELEPHONE_DIGITS,
} from './limits.js';
import { isMessageKey, MESSAGE_KEYS } from './messages.js';

describe('maximum lengths (spec section 5)', () => {
  it.each([
    ['first_name', 50],
    ['last_name', 50],
    ['birth_name', 50],
    ['birth_municipality', 240],
    ['birth_district', 240],
    ['home_street', 80],
    ['contact_street', 80],
    ['home_house_num', 10],
    ['home_org_num', 10],
    ['contact_house_num', 10],
    ['contact_org_num', 10],
    ['home_city', 80],
    ['contact_city', 80],
    ['home_zip', 11],
    ['contact_zip', 11],
    ['employer_current_name', 240],
    ['employer_current_description', 240],
    ['contact_company', 240],
    ['telephone', 80],
    ['email', 240],
    ['document_number', 240],
    ['field1', 240],
    ['field2', 240],
    ['reason', 3993],
  ] as const)('%s is %i', (field, max) => {
    expect(MAX_LENGTHS[field]).toBe(max);
  });
});

describe('constants (spec section 9)', () => {
  it('has the spec values', () => {
    expect(COVERAGE_WINDOW_MONTHS).toBe(60);
    expect(MAX_UNCOVERED_MONTHS).toBe(1);
    expect(EMPLOYER_START_MAX_MONTHS_AHEAD).toBe(6);
    expect(TELEPHONE_DIGITS).toBe(9);
    expect(DATA_MAILBOX_LENGTH).toBe(7);
    expect(MAX_ABROAD_STAYS).toBe(6);
    expect(ALERT_TIMEOUT_MS).toBe(5000);
    expect(BIRTH_DATE_RANGE_YEARS).toBe(100);
  });
});

describe('message keys', () => {
  it('are the 18 keys of the spec, each once', () => {
    expect(MESSAGE_KEYS).toHaveLength(19);
    expect(new Set(MESSAGE_KEYS).size).toBe(19);
    expect(isMessageKey('maxlength')).toBe(true);
    expect(isMessageKey('birthNumberInvalidDay')).toBe(true);
    expect(isMessageKey('minlength')).toBe(false);
  });
});
