import type { NiaIdentity } from './sessions.js';

/**
 * NIA's claims (eIDAS names, PRODUCT.md "NIA sign-in") to the identity kept in the session.
 * Only the names, the birth date and the person identifier are kept; the address, place of
 * birth and e-mail NIA may release are not stored (the register's data prefill the form).
 */
export const NIA_CLAIMS = [
  'CurrentGivenName',
  'CurrentFamilyName',
  'DateOfBirth',
  'PersonIdentifier',
  'CurrentAddress',
  'PlaceOfBirth',
  'eMail',
] as const;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** 'YYYY-MM-DD' from NIA's DateOfBirth ('YYYY-MM-DD', possibly with a time part); null if not a real date. */
export function birthDateOf(v: unknown): string | null {
  const s = text(v);
  const m = s ? /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(s) : null;
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : null;
}

/** The identity of a sign-in; null when there is no person identifier at all (nothing to key on). */
export function identityFromClaims(claims: Record<string, unknown>): NiaIdentity | null {
  const personIdentifier = text(claims.PersonIdentifier) ?? text(claims.sub);
  if (!personIdentifier) return null;
  const first = text(claims.CurrentGivenName);
  const last = text(claims.CurrentFamilyName);
  const birth = birthDateOf(claims.DateOfBirth);
  return {
    complete: first !== null && last !== null && birth !== null,
    first_name: first,
    last_name: last,
    birth_date: birth,
    person_identifier: personIdentifier,
  };
}
