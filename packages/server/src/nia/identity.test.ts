import { defaultFormValues } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { birthDateOf, identityFromClaims } from './identity.js';
import { checkNiaIdentity } from './match.js';
import { acrSatisfies, LOA } from './settings.js';

describe('NIA claims', () => {
  it('reads the birth date as YYYY-MM-DD and refuses what is not a real date', () => {
    expect(birthDateOf('1985-03-15')).toBe('1985-03-15');
    expect(birthDateOf('1985-03-15T00:00:00Z')).toBe('1985-03-15');
    expect(birthDateOf('1985-02-30')).toBeNull();
    expect(birthDateOf('15.03.1985')).toBeNull();
    expect(birthDateOf('')).toBeNull();
    expect(birthDateOf(19850315)).toBeNull();
  });

  it('is complete only with both names and a birth date; keys on PersonIdentifier, else sub', () => {
    const full = {
      CurrentGivenName: ' Eva ',
      CurrentFamilyName: 'Marková',
      DateOfBirth: '1990-05-12',
      PersonIdentifier: 'p1',
      sub: 's1',
    };
    expect(identityFromClaims(full)).toEqual({
      complete: true,
      first_name: 'Eva',
      last_name: 'Marková',
      birth_date: '1990-05-12',
      person_identifier: 'p1',
    });
    expect(identityFromClaims({ ...full, DateOfBirth: undefined })?.complete).toBe(false);
    expect(identityFromClaims({ ...full, CurrentGivenName: '  ' })?.complete).toBe(false);
    expect(identityFromClaims({ ...full, PersonIdentifier: undefined })?.person_identifier).toBe('s1');
    expect(identityFromClaims({ CurrentGivenName: 'Eva' })).toBeNull();
  });

  it('accepts the level asked for or a higher one', () => {
    expect(acrSatisfies(LOA.substantial, LOA.substantial)).toBe(true);
    expect(acrSatisfies(LOA.high, LOA.substantial)).toBe(true);
    expect(acrSatisfies(LOA.low, LOA.substantial)).toBe(false);
    expect(acrSatisfies(undefined, LOA.substantial)).toBe(false);
  });
});

describe('a NIA request is the signed-in person’s own', () => {
  const identity = {
    complete: true,
    first_name: 'Štěpán',
    last_name: 'Dvořák',
    birth_date: '1985-03-15',
    person_identifier: 'x',
  };
  const values = {
    ...defaultFormValues(),
    first_name: 'stepan ',
    last_name: 'DVOŘÁK',
    birth_date: '1985-03-15',
  };
  const fields = (f: () => void) => {
    try {
      f();
      return [];
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).code).toBe('NIA_IDENTITY_MISMATCH');
      return (e as ApiError).fields?.map((x) => x.path);
    }
  };
  it('compares names like the search (case and diacritics ignored) and the birth date exactly', () => {
    expect(fields(() => checkNiaIdentity(identity, values, false))).toEqual([]);
    expect(fields(() => checkNiaIdentity(identity, { ...values, first_name: 'Petr' }, false))).toEqual([
      'first_name',
    ]);
    expect(fields(() => checkNiaIdentity(identity, { ...values, birth_date: '1985-03-16' }, false))).toEqual([
      'birth_date',
    ]);
  });
  it('a duplicate request without a birth date is checked by name only', () => {
    expect(fields(() => checkNiaIdentity(identity, { ...values, birth_date: '' }, true))).toEqual([]);
    expect(fields(() => checkNiaIdentity(identity, { ...values, birth_date: '' }, false))).toEqual([
      'birth_date',
    ]);
    expect(fields(() => checkNiaIdentity(identity, { ...values, birth_date: '2000-01-01' }, true))).toEqual([
      'birth_date',
    ]);
  });
});
