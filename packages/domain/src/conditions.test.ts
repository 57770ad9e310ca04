import { describe, expect, it } from 'vitest';
import {
  availableDeliveryTypes,
  birthStateChangePatch,
  hasConflictingDuplicateTypes,
  isBirthNumberEnabled,
  isBirthNumberRequired,
  isDataMailboxRequired,
  isDataMailboxShown,
  isDialCodeEnabled,
  isDistrictEnabled,
  isField2Enabled,
  isMunicipalityFreeText,
  isSecondCitizenshipEnabled,
  toggleDuplicateType,
} from './conditions.js';
import {
  defaultFormContext,
  defaultFormValues,
  FIELDS,
  type FormFieldName,
  isFieldHidden,
  isFieldRequired,
} from './fields.js';

const today = { year: 2025, month: 3, day: 15 };

describe('citizenship and birth number', () => {
  it('requires the birth number when either citizenship is CZ', () => {
    expect(isBirthNumberRequired({ citizen_of_1: 'CZ', citizen_of_2: '' })).toBe(true);
    expect(isBirthNumberRequired({ citizen_of_1: 'SK', citizen_of_2: 'CZ' })).toBe(true);
    expect(isBirthNumberRequired({ citizen_of_1: 'SK', citizen_of_2: 'DE' })).toBe(false);
    expect(isBirthNumberRequired({ citizen_of_1: '', citizen_of_2: '' })).toBe(false);
  });
  it('ignores a second citizenship while it is disabled by ##', () => {
    expect(isSecondCitizenshipEnabled('##')).toBe(false);
    expect(isSecondCitizenshipEnabled('CZ')).toBe(true);
    expect(isBirthNumberRequired({ citizen_of_1: '##', citizen_of_2: 'CZ' })).toBe(false);
  });
  it('requires it for a person known to be Czech', () => {
    expect(isBirthNumberRequired({ citizen_of_1: '', citizen_of_2: '' }, { czechCitizen: true })).toBe(true);
  });
  it('enables the birth number only with a valid birth date', () => {
    expect(isBirthNumberEnabled('1985-02-23', today)).toBe(true);
    expect(isBirthNumberEnabled('', today)).toBe(false);
    expect(isBirthNumberEnabled('1985-02-30', today)).toBe(false);
    expect(isBirthNumberEnabled('1900-01-01', today)).toBe(false);
    expect(isBirthNumberEnabled('2025-03-16', today)).toBe(false);
  });
});

describe('birth place', () => {
  it('enables the district (and a municipality list) only for CZ', () => {
    expect(isDistrictEnabled('CZ')).toBe(true);
    expect(isDistrictEnabled('SK')).toBe(false);
    expect(isDistrictEnabled('')).toBe(false);
    expect(isMunicipalityFreeText('SK')).toBe(true);
    expect(isMunicipalityFreeText('CZ')).toBe(false);
  });
  it('clears municipality and district when the country moves into or out of CZ', () => {
    expect(birthStateChangePatch('CZ', 'SK')).toEqual({ birth_municipality: '', birth_district: '' });
    expect(birthStateChangePatch('SK', 'CZ')).toEqual({ birth_municipality: '', birth_district: '' });
    expect(birthStateChangePatch('', 'CZ')).toEqual({ birth_municipality: '', birth_district: '' });
    expect(birthStateChangePatch('SK', 'DE')).toEqual({});
    expect(birthStateChangePatch('CZ', 'CZ')).toEqual({});
  });
});

describe('data mailbox and delivery', () => {
  const list = [
    { code: 'EMAIL', name_cz: 'E-mail', name_en: 'E-mail' },
    { code: 'DATOVKOU', name_cz: 'Datovou schránkou', name_en: 'Data mailbox' },
  ];
  it('removes DATOVKOU when no data mailbox is known', () => {
    expect(availableDeliveryTypes(list, false).map((t) => t.code)).toEqual(['EMAIL']);
    expect(availableDeliveryTypes(list, true).map((t) => t.code)).toEqual(['EMAIL', 'DATOVKOU']);
  });
  it('requires the data mailbox for DATOVKOU or without prefill', () => {
    expect(isDataMailboxRequired({ delivery_type: 'DATOVKOU' })).toBe(true);
    // Without a prefill too only DATOVKOU makes it required (docs/requirements.md, product decisions,
    // "Data mailbox").
    expect(isDataMailboxRequired({ delivery_type: 'EMAIL' })).toBe(false);
  });
  it('shows it when read-only or without prefill', () => {
    expect(isDataMailboxShown({ readOnly: new Set(['data_mailbox']), noPrefill: false })).toBe(true);
    expect(isDataMailboxShown({ readOnly: new Set(), noPrefill: true })).toBe(true);
    expect(isDataMailboxShown({ readOnly: new Set(['email']), noPrefill: false })).toBe(false);
  });
});

describe('rows', () => {
  it('disables field2 for type 3 (Other)', () => {
    expect(isField2Enabled('1')).toBe(true);
    expect(isField2Enabled('2')).toBe(true);
    expect(isField2Enabled('3')).toBe(false);
    expect(isField2Enabled('')).toBe(true);
  });
  it('the stays abroad are at most 6 (the add button hides at 6: RowsField reads maxItems)', () => {
    expect(FIELDS.abroad_stay.maxItems).toBe(6);
  });
});

describe('duplicate types', () => {
  it('POSKOZENI and ODCIZENI exclude each other', () => {
    expect(toggleDuplicateType([], 'POSKOZENI')).toEqual(['POSKOZENI']);
    expect(toggleDuplicateType(['POSKOZENI'], 'ODCIZENI')).toEqual(['ODCIZENI']);
    expect(toggleDuplicateType(['ODCIZENI', 'ZMENA'], 'POSKOZENI')).toEqual(['ZMENA', 'POSKOZENI']);
  });
  it('other types combine freely and toggling removes', () => {
    expect(toggleDuplicateType(['POSKOZENI'], 'ZMENA')).toEqual(['POSKOZENI', 'ZMENA']);
    expect(toggleDuplicateType(['POSKOZENI', 'ZMENA'], 'POSKOZENI')).toEqual(['ZMENA']);
  });
  it('detects a conflicting selection', () => {
    expect(hasConflictingDuplicateTypes(['POSKOZENI', 'ODCIZENI'])).toBe(true);
    expect(hasConflictingDuplicateTypes(['POSKOZENI', 'ZMENA'])).toBe(false);
  });
});

describe('duplicate mode', () => {
  it('hides sex, birth details, other citizenships, employer, activities and abroad', () => {
    for (const f of [
      'sex',
      'birth_date',
      'birth_state',
      'birth_municipality',
      'birth_district',
      'other_citizenships',
      'employer_current_name',
      'employer_current_from',
      'employer_current_description',
      'past_activities',
      'abroad_stay',
    ] as FormFieldName[]) {
      expect(isFieldHidden(f, { duplicate: true })).toBe(true);
      expect(isFieldHidden(f, { duplicate: false })).toBe(false);
    }
    expect(isFieldHidden('first_name', { duplicate: true })).toBe(false);
  });
  it('shows duplicate_type only in duplicate mode', () => {
    expect(isFieldHidden('duplicate_type', { duplicate: false })).toBe(true);
    expect(isFieldHidden('duplicate_type', { duplicate: true })).toBe(false);
  });
});

describe('isFieldRequired', () => {
  const values = { ...defaultFormValues(), birth_state: 'CZ', citizen_of_1: 'CZ', delivery_type: 'EMAIL' };
  const normal = defaultFormContext();
  const duplicate = defaultFormContext({ duplicate: true });
  it('follows the spec list', () => {
    for (const f of [
      'first_name',
      'sex',
      'birth_date',
      'email',
      'delivery_type',
      'employer_current_from',
    ] as const) {
      expect(isFieldRequired(f, values, normal)).toBe(true);
    }
    for (const f of ['telephone', 'home_house_num', 'contact_company', 'citizen_of_2', 'aifo'] as const) {
      expect(isFieldRequired(f, values, normal)).toBe(false);
    }
  });
  it('applies the conditions', () => {
    expect(isFieldRequired('birth_district', values, normal)).toBe(true);
    expect(isFieldRequired('birth_district', { ...values, birth_state: 'SK' }, normal)).toBe(false);
    expect(isFieldRequired('birth_number', values, normal)).toBe(true);
    expect(isFieldRequired('birth_number', { ...values, citizen_of_1: 'SK' }, normal)).toBe(false);
    expect(isFieldRequired('data_mailbox', values, normal)).toBe(false);
    expect(isFieldRequired('data_mailbox', { ...values, delivery_type: 'DATOVKOU' }, normal)).toBe(true);
    expect(isFieldRequired('duplicate_type', values, normal)).toBe(false);
    expect(isFieldRequired('dial_code', values, normal)).toBe(false);
    expect(isFieldRequired('dial_code', { ...values, telephone: '603123456' }, normal)).toBe(true);
    expect(isFieldRequired('dial_code', { ...values, telephone: '603123456' }, duplicate)).toBe(true);
    expect(isDialCodeEnabled('  ')).toBe(false);
    expect(isDialCodeEnabled('6')).toBe(true);
  });
  it('drops what duplicate mode hides and adds duplicate_type', () => {
    expect(isFieldRequired('sex', values, duplicate)).toBe(false);
    expect(isFieldRequired('birth_district', values, duplicate)).toBe(false);
    expect(isFieldRequired('employer_current_name', values, duplicate)).toBe(false);
    expect(isFieldRequired('first_name', values, duplicate)).toBe(true);
    expect(isFieldRequired('duplicate_type', values, duplicate)).toBe(true);
  });
});
