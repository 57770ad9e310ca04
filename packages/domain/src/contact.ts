// Contact fields: telephone, data mailbox, e-mail.

import { DATA_MAILBOX_LENGTH, TELEPHONE_DIGITS } from './limits.js';
import type { MessageKey } from './messages.js';

/** Removes every whitespace character: '603 123 456' -> '603123456'. */
export function normalizeTelephone(s: string): string {
  return s.replace(/\s+/gu, '');
}

/**
 * The error of a filled telephone (the field is optional: an empty value is no error).
 * After removing spaces: any character other than a digit -> phoneInvalidPattern
 * (so '+420 603 123 456' too: the dial code is the separate value dial_code); digits only but not
 * exactly 9 of them -> phoneInvalidLength.
 */
export function telephoneError(s: string): MessageKey | null {
  const n = normalizeTelephone(s);
  if (n === '') return null;
  if (!/^\d+$/.test(n)) return 'phoneInvalidPattern';
  if (n.length !== TELEPHONE_DIGITS) return 'phoneInvalidLength';
  return null;
}

/** A country calling code as ITU-T E.164 writes it: '+' and 1-3 digits, not starting with 0. */
export const DIAL_CODE_PATTERN = /^\+[1-9]\d{0,2}$/;

/**
 * The error of a filled dial code (surrounding spaces ignored): `pattern` when it is not
 * written as a calling code, or when a list of known codes is given (GET /dial-codes) and it
 * is not in it. The spec has no key of its own for it.
 */
export function dialCodeError(s: string, known?: ReadonlySet<string>): MessageKey | null {
  const v = s.trim();
  if (v === '') return null;
  if (!DIAL_CODE_PATTERN.test(v)) return 'pattern';
  if (known && !known.has(v)) return 'pattern';
  return null;
}

/**
 * A telephone number for people to read: '+420', '603123456' -> '+420 603 123 456'. Nine
 * digits are grouped by three; anything else is shown as it is. Without a dial code (a
 * request stored before there was one) only the number.
 */
export function formatTelephone(telephone: string, dialCode = ''): string {
  const n = normalizeTelephone(telephone);
  if (n === '') return '';
  const grouped = /^\d{9}$/.test(n) ? `${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}` : telephone.trim();
  const code = dialCode.trim();
  return code === '' ? grouped : `${code} ${grouped}`;
}

/**
 * The error of a filled data mailbox (ISDS id, e.g. 'abc12de'; surrounding spaces
 * ignored). A character other than a letter A-Z/a-z or digit -> dataMailboxAlphanumeric
 * (checked first: it is wrong whatever the length); not exactly 7 characters ->
 * dataMailboxLength.
 */
export function dataMailboxError(s: string): MessageKey | null {
  const v = s.trim();
  if (v === '') return null;
  if (!/^[A-Za-z0-9]+$/.test(v)) return 'dataMailboxAlphanumeric';
  if (v.length !== DATA_MAILBOX_LENGTH) return 'dataMailboxLength';
  return null;
}

// E-mail: deliberately not RFC 5322's full grammar (quoted local parts, IP literals and
// comments never appear in a citizen's address), and not zod's strict ASCII-only check
// either. Accepted: a local part of letters (any script), digits and the RFC's "atext"
// symbols (so plus addressing 'jan+ros@…'), dot-separated without empty parts; a domain
// of at least two labels of letters (any script, IDN), digits and inner hyphens; a top
// level domain of at least two letters (or a punycode 'xn--' label). Local part up to 64
// characters; the whole address up to 240 (the field's maximum length).
const ATEXT = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]";
const LABEL = '[\\p{L}\\p{M}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?';
const TLD = '(?:[\\p{L}\\p{M}]{2,}|xn--[a-z0-9-]+)';
/** The longest address (spec section 5): the e-mail field's maximum length (its catalogue entry reads it). */
export const EMAIL_MAX_LENGTH = 240;
export const EMAIL_PATTERN = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@(?:${LABEL}\\.)+${TLD}$`, 'iu');

/** True when `s` (surrounding spaces ignored) looks like a deliverable e-mail address. */
export function isValidEmail(s: string): boolean {
  const v = s.trim();
  if (v.length > EMAIL_MAX_LENGTH) return false;
  const at = v.lastIndexOf('@');
  if (at < 1 || at > 64) return false;
  return EMAIL_PATTERN.test(v);
}

/** The error of a filled e-mail: `email` when it is not an address, null otherwise. */
export function emailError(s: string): MessageKey | null {
  if (s.trim() === '') return null;
  return isValidEmail(s) ? null : 'email';
}
