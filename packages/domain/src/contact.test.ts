import { describe, expect, it } from 'vitest';
import {
  dataMailboxError,
  dialCodeError,
  emailError,
  formatTelephone,
  isValidEmail,
  normalizeTelephone,
  telephoneError,
} from './contact.js';

describe('telephone', () => {
  it('is optional', () => {
    expect(telephoneError('')).toBeNull();
    expect(telephoneError('   ')).toBeNull();
  });
  it('accepts exactly 9 digits after removing spaces', () => {
    expect(telephoneError('603123456')).toBeNull();
    expect(telephoneError('603 123 456')).toBeNull();
    expect(telephoneError(' 60 31 23 45 6 ')).toBeNull();
    expect(normalizeTelephone('603 123\t456')).toBe('603123456');
  });
  it('gives phoneInvalidLength for a wrong number of digits', () => {
    expect(telephoneError('60312345')).toBe('phoneInvalidLength');
    expect(telephoneError('6031234567')).toBe('phoneInvalidLength');
    expect(telephoneError('420603123456')).toBe('phoneInvalidLength');
  });
  it('gives phoneInvalidPattern for anything but digits', () => {
    expect(telephoneError('+420603123456')).toBe('phoneInvalidPattern');
    expect(telephoneError('603-123-456')).toBe('phoneInvalidPattern');
    expect(telephoneError('60312345a')).toBe('phoneInvalidPattern');
    expect(telephoneError('(603)123456')).toBe('phoneInvalidPattern');
  });
});

describe('dial code', () => {
  it('is empty-tolerant (required is decided elsewhere)', () => {
    expect(dialCodeError('')).toBeNull();
    expect(dialCodeError('  ')).toBeNull();
  });
  it('is a + and 1-3 digits, not starting with 0', () => {
    for (const ok of ['+420', '+1', '+49', ' +421 ']) expect(dialCodeError(ok)).toBeNull();
    for (const bad of ['420', '+', '+0420', '+4200', '+42a', '00420', '+ 420', '++420']) {
      expect(dialCodeError(bad)).toBe('pattern');
    }
  });
  it('must be one of the known codes when the list is given', () => {
    const known = new Set(['+420', '+421', '+1']);
    expect(dialCodeError('+421', known)).toBeNull();
    expect(dialCodeError(' +1 ', known)).toBeNull();
    expect(dialCodeError('+999', known)).toBe('pattern');
    expect(dialCodeError('+999')).toBeNull();
  });
});

describe('formatTelephone', () => {
  it('groups nine digits by three behind the dial code', () => {
    expect(formatTelephone('603123456', '+420')).toBe('+420 603 123 456');
    expect(formatTelephone('603 12 34 56', '+421')).toBe('+421 603 123 456');
  });
  it('shows only the number without a dial code (requests stored before there was one)', () => {
    expect(formatTelephone('603123456')).toBe('603 123 456');
    expect(formatTelephone('603123456', '')).toBe('603 123 456');
  });
  it('shows another number as it is and nothing without a number', () => {
    expect(formatTelephone('60312345', '+420')).toBe('+420 60312345');
    expect(formatTelephone('', '+420')).toBe('');
  });
});

describe('data mailbox', () => {
  it('is empty-tolerant (required is decided elsewhere)', () => {
    expect(dataMailboxError('')).toBeNull();
  });
  it('accepts exactly 7 letters or digits', () => {
    expect(dataMailboxError('abc12de')).toBeNull();
    expect(dataMailboxError('ABC12DE')).toBeNull();
    expect(dataMailboxError(' abc12de ')).toBeNull();
  });
  it('gives dataMailboxLength for 6 or 8', () => {
    expect(dataMailboxError('abc12d')).toBe('dataMailboxLength');
    expect(dataMailboxError('abc12def')).toBe('dataMailboxLength');
  });
  it('gives dataMailboxAlphanumeric for other characters, whatever the length', () => {
    expect(dataMailboxError('abc-2de')).toBe('dataMailboxAlphanumeric');
    expect(dataMailboxError('ab c2de')).toBe('dataMailboxAlphanumeric');
    expect(dataMailboxError('abč12de')).toBe('dataMailboxAlphanumeric');
    expect(dataMailboxError('a-b')).toBe('dataMailboxAlphanumeric');
  });
});

describe('e-mail', () => {
  it.each([
    'jan.novak@example.cz',
    'jan+ros@example.cz',
    'j@mail.seznam.cz',
    'first.last@sub.domain.example.com',
    'o_brien-99@firma.co.uk',
    "o'connor@example.ie",
    'jan.novák@příklad.cz',
    'user@xn--pklad-zsa96e.cz',
    'user@example.xn--p1ai',
    'ADMIN@EXAMPLE.COM',
    ' trailing@example.cz ',
    '12345@123.cz',
  ])('accepts %j', (s) => {
    expect(isValidEmail(s)).toBe(true);
    expect(emailError(s)).toBeNull();
  });
  it.each([
    'plain',
    '@example.cz',
    'jan@',
    'jan@example',
    'jan@example.c',
    'jan@example.123',
    'jan@@example.cz',
    'jan novak@example.cz',
    'jan@exa mple.cz',
    '.jan@example.cz',
    'jan.@example.cz',
    'jan..novak@example.cz',
    'jan@-example.cz',
    'jan@example-.cz',
    'jan@example..cz',
    'jan@.example.cz',
    '"jan"@example.cz',
    'jan@[127.0.0.1]',
    'jan@example.cz.',
  ])('rejects %j with email', (s) => {
    expect(emailError(s)).toBe('email');
  });
  it('limits the local part to 64 and the address to 240 characters', () => {
    expect(isValidEmail(`${'a'.repeat(64)}@example.cz`)).toBe(true);
    expect(isValidEmail(`${'a'.repeat(65)}@example.cz`)).toBe(false);
    const label = 'b'.repeat(60);
    const long = `a@${label}.${label}.${label}.cz`; // 2 + 3*61 + 2 = 187
    expect(isValidEmail(long)).toBe(true);
    expect(isValidEmail(`a@${label}.${label}.${label}.${label}.cz`)).toBe(false); // 248
  });
  it('leaves empty to the required rule', () => {
    expect(emailError('')).toBeNull();
  });
});
