import { describe, expect, it } from 'vitest';
import {
  catalogueEntries,
  defaultFormContext,
  defaultFormValues,
  FIELDS,
  type FormValues,
} from './fields.js';
import {
  inputAttributes,
  KINDS,
  type Kind,
  type KindCheck,
  kindOf,
  normalizedValue,
  printedValue,
} from './kinds.js';
import { MESSAGE_KEYS } from './messages.js';

const today = { year: 2026, month: 3, day: 1 };
const check = (spec: KindCheck['spec'], over: Partial<FormValues> = {}, ctx = defaultFormContext()) => ({
  values: { ...defaultFormValues(), ...over },
  ctx,
  today,
  spec,
});
/** The kind's rule on a value, holding it to the kind's listed messages. */
const formatOf = (kind: Kind, value: string, c: KindCheck) => {
  const key = kind.format?.(value, c) ?? null;
  if (key !== null) expect(kind.messages).toContain(key);
  return key;
};

describe('kinds', () => {
  it('list only message keys that exist, and every entry names a kind of the registry', () => {
    for (const kind of Object.values(KINDS))
      for (const key of kind.messages) expect(MESSAGE_KEYS).toContain(key);
    for (const { spec } of catalogueEntries())
      if (spec.kind !== 'boolean') expect(KINDS[spec.kind]).toBeDefined();
  });

  it('text: no format rule, no attributes', () => {
    expect(KINDS.text.format).toBeUndefined();
    expect(inputAttributes(FIELDS.first_name)).toEqual({});
    expect(printedValue(FIELDS.first_name, 'Jan', defaultFormValues())).toBe('Jan');
  });

  it('email: its rule, an e-mail box', () => {
    const c = check(FIELDS.email);
    expect(formatOf(KINDS.email, 'jan@example.cz', c)).toBeNull();
    expect(formatOf(KINDS.email, 'jan@', c)).toBe('email');
    expect(inputAttributes(FIELDS.email)).toEqual({
      type: 'email',
      inputMode: 'email',
      autoComplete: 'email',
    });
  });

  it('telephone: nine digits, stored without spaces, printed with its dial code', () => {
    const c = check(FIELDS.telephone);
    expect(formatOf(KINDS.telephone, '603 123 456', c)).toBeNull();
    expect(formatOf(KINDS.telephone, '+420603123456', c)).toBe('phoneInvalidPattern');
    expect(formatOf(KINDS.telephone, '60312345', c)).toBe('phoneInvalidLength');
    expect(normalizedValue(FIELDS.telephone, '603 123 456')).toBe('603123456');
    expect(printedValue(FIELDS.telephone, '603123456', { ...defaultFormValues(), dial_code: '+421' })).toBe(
      '+421 603 123 456',
    );
    expect(printedValue(FIELDS.telephone, '603123456', { ...defaultFormValues(), dial_code: '' })).toBe(
      '603 123 456',
    );
    expect(inputAttributes(FIELDS.telephone)).toEqual({ inputMode: 'tel', autoComplete: 'tel-national' });
  });

  it('birthNumber: its form, then its agreement with a valid birth date; checked only where required', () => {
    expect(KINDS.birthNumber.checkedWhen).toBe('required');
    expect(formatOf(KINDS.birthNumber, '12', check(FIELDS.birth_number))).toBe('birthNumberInvalidFormat');
    const born = check(FIELDS.birth_number, { birth_date: '1985-03-15' });
    expect(formatOf(KINDS.birthNumber, '850315/1008', born)).toBeNull();
    expect(formatOf(KINDS.birthNumber, '850316/1008', born)).toBe('birthNumberInvalidDay');
    // An invalid birth date takes no part.
    expect(
      formatOf(KINDS.birthNumber, '850316/1008', check(FIELDS.birth_number, { birth_date: '1985-13' })),
    ).toBeNull();
    expect(normalizedValue(FIELDS.birth_number, '850315 / 1008')).toBe('8503151008');
    expect(printedValue(FIELDS.birth_number, '8503151008', defaultFormValues())).toBe('850315/1008');
    expect(printedValue(FIELDS.birth_number, 'X-12', defaultFormValues())).toBe('X-12');
    expect(inputAttributes(FIELDS.birth_number)).toEqual({ inputMode: 'numeric' });
  });

  it('dataMailbox: seven letters and digits', () => {
    const c = check(FIELDS.data_mailbox);
    expect(formatOf(KINDS.dataMailbox, 'abc12de', c)).toBeNull();
    expect(formatOf(KINDS.dataMailbox, 'abc-2de', c)).toBe('dataMailboxAlphanumeric');
    expect(formatOf(KINDS.dataMailbox, 'abc12', c)).toBe('dataMailboxLength');
  });

  it('date: an ISO date, a birth date within its range, printed dd.mm.yyyy', () => {
    const c = check(FIELDS.birth_date);
    expect(formatOf(KINDS.date, '1985-03-15', c)).toBeNull();
    expect(formatOf(KINDS.date, '2027-01-01', c)).toBe('birthDateFuture');
    expect(formatOf(KINDS.date, '1900-01-01', c)).toBe('birthDateTooOld');
    expect(formatOf(KINDS.date, 'soon', c)).toBe('pattern');
    // Without a range, any valid date.
    expect(formatOf(KINDS.date, '2027-01-01', check({ kind: 'date', maxLength: 10 }))).toBeNull();
    expect(formatOf(KINDS.date, 'soon', check({ kind: 'date', maxLength: 10 }))).toBe('pattern');
    expect(printedValue(FIELDS.birth_date, '1985-03-15', defaultFormValues())).toBe('15.03.1985');
  });

  it("monthYear: MM/YYYY, not after this month or the entry's months ahead", () => {
    const past = check(FIELDS.past_activities.columns.from);
    expect(formatOf(KINDS.monthYear, '02/2026', past)).toBeNull();
    expect(formatOf(KINDS.monthYear, '04/2026', past)).toBe('monthDateFutureDate');
    expect(formatOf(KINDS.monthYear, '13/2026', past)).toBe('monthDateInvalidMonth');
    expect(formatOf(KINDS.monthYear, 'march', past)).toBe('monthDateInvalidPattern');
    const start = check(FIELDS.employer_current_from);
    expect(formatOf(KINDS.monthYear, '09/2026', start)).toBeNull();
    expect(formatOf(KINDS.monthYear, '10/2026', start)).toBe('monthDateFarFutureDate');
    expect(normalizedValue(FIELDS.employer_current_from, '3/2026')).toBe('03/2026');
  });

  it('country, municipality, district, choice: codes, no format rule of their own', () => {
    for (const kind of [KINDS.country, KINDS.municipality, KINDS.district, KINDS.choice]) {
      expect(kind.format).toBeUndefined();
      expect(kind.messages).toEqual([]);
    }
  });

  it("list: the list's own form (a dial code), else none", () => {
    const dial = check(FIELDS.dial_code, {}, defaultFormContext({ dialCodes: new Set(['+420']) }));
    expect(formatOf(KINDS.list, '+420', dial)).toBeNull();
    expect(formatOf(KINDS.list, '+421', dial)).toBe('pattern');
    expect(formatOf(KINDS.list, '420', check(FIELDS.dial_code))).toBe('pattern');
    expect(formatOf(KINDS.list, 'anything', check(FIELDS.document_type))).toBeNull();
    expect(kindOf(FIELDS.document_type)).toBe(KINDS.list);
  });
});
