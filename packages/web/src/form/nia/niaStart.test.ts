import { describe, expect, it } from 'vitest';
import type { SsoSession } from '../../api/sso';
import { NIA_PERSON } from '../../test/nia';
import { draftFitsSession, isIncomplete, niaStart, planNia } from './niaStart';

const PERSON = NIA_PERSON;

const session = (over: Partial<SsoSession> = {}, nia: Partial<SsoSession['nia']> = {}): SsoSession => ({
  nia: { complete: true, first_name: 'Štěpán', last_name: 'Dvořák', birth_date: '1985-03-15', ...nia },
  szr: PERSON,
  record: PERSON.record ?? null,
  aifo: 'AIFO-1',
  databox: null,
  ...over,
});

describe('planNia', () => {
  it('with the register: the search prefill under the NIA identity, names and birth date read-only', () => {
    const plan = planNia(session(), false);
    expect(plan.kind).toBe('form');
    if (plan.kind !== 'form') return;
    expect(plan.fromRegister).toBe(true);
    expect(plan.incomplete).toBe(false);
    const { values, readOnly, noPrefill } = plan.start;
    expect(noPrefill).toBe(false);
    expect(values).toMatchObject({
      first_name: 'Štěpán',
      last_name: 'Dvořák',
      birth_date: '1985-03-15',
      home_street: 'Dlouhá',
      home_house_num: '12',
      document_type: 'OP_CR',
      aifo: 'AIFO-1',
    });
    expect(readOnly).toEqual(expect.arrayContaining(['first_name', 'last_name', 'birth_date', 'home_city']));
    // No data mailbox known: none shown, no DATOVKOU.
    expect(plan.start.dataMailboxDelivery).toBe(false);
    expect(readOnly).not.toContain('data_mailbox');
  });

  it('NIA wins over the register for the names and the birth date (the server checks them)', () => {
    const plan = planNia(session({}, { last_name: 'Dvořáková', birth_date: '1985-03-16' }), false);
    if (plan.kind !== 'form') throw new Error(plan.kind);
    expect(plan.start.values.last_name).toBe('Dvořáková');
    expect(plan.start.values.birth_date).toBe('1985-03-16');
  });

  it('a known data mailbox is read-only and offers DATOVKOU', () => {
    const plan = planNia(session({ databox: 'h7k2m9p' }), false);
    if (plan.kind !== 'form') throw new Error(plan.kind);
    expect(plan.start.values.data_mailbox).toBe('h7k2m9p');
    expect(plan.start.readOnly).toContain('data_mailbox');
    expect(plan.start.dataMailboxDelivery).toBe(true);
  });

  it('without the register: the identity only, with the no-prefill flag; birth name starts as the last name', () => {
    const plan = planNia(session({ szr: null, record: null, aifo: null }), false);
    if (plan.kind !== 'form') throw new Error(plan.kind);
    expect(plan.fromRegister).toBe(false);
    expect(plan.start.noPrefill).toBe(true);
    expect(plan.start.readOnly.sort()).toEqual(['birth_date', 'first_name', 'last_name']);
    expect(plan.start.values).toMatchObject({ birth_name: 'Dvořák', home_city: '', aifo: '' });
  });

  it('incomplete: what NIA did not release stays editable', () => {
    const s = session({ szr: null, record: null }, { complete: false, birth_date: null });
    expect(isIncomplete(s)).toBe(true);
    const plan = planNia(s, false);
    if (plan.kind !== 'form') throw new Error(plan.kind);
    expect(plan.incomplete).toBe(true);
    expect(plan.start.readOnly).not.toContain('birth_date');
    expect(plan.start.values.birth_date).toBe('');
  });

  it('a malformed NIA birth date counts as not released', () => {
    expect(isIncomplete(session({}, { birth_date: '15.03.1985' }))).toBe(true);
  });

  it('duplicate mode: with a certificate the form; without one the birth-number retry; unknown: not found', () => {
    expect(planNia(session(), true).kind).toBe('form');
    const noRecord = { ...PERSON, record: undefined };
    const retry = planNia(session({ szr: noRecord, record: null }), true);
    expect(retry).toMatchObject({
      kind: 'retry',
      retryFrom: { first_name: 'Štěpán', last_name: 'Dvořák', type: 'OP_CR', number: '123456789' },
    });
    const notFound = planNia(session({ szr: null, record: null }), true);
    expect(notFound.kind).toBe('not-found');
    // Normal mode does not need a certificate.
    expect(planNia(session({ szr: noRecord, record: null }), false).kind).toBe('form');
  });
});

describe('draftFitsSession', () => {
  it('a draft made from this identity fits; one from before the sign-in does not', () => {
    const s = session();
    expect(draftFitsSession(niaStart(s, false, PERSON), s)).toBe(true);
    const other = niaStart(session({}, { first_name: 'Jan' }), false, PERSON);
    expect(draftFitsSession(other, s)).toBe(false);
    const manual = niaStart(s, false, null);
    expect(draftFitsSession({ ...manual, readOnly: [] }, s)).toBe(false);
  });
});
