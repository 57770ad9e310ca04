import type { ClaimRole } from './config.js';
import type { NiaIdentity } from './sessions.js';

/**
 * NIA's claims (eIDAS names; docs/requirements.md, product decisions, "NIA sign-in") to the
 * identity kept in the session. Only the names, the birth date and the person identifier are kept;
 * the address, place of birth and e-mail NIA may release are not stored (the register's data
 * prefill the form).
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

/**
 * Where each part of the identity is read from, first present wins: a name configured in
 * ROS_NIA_CLAIMS, then NIA's eIDAS name, then the standard OpenID Connect name. The person
 * identifier falls back to `sub` (a pairwise subject is a pseudonym per service, as NIA's is).
 */
export const BUILT_IN_CLAIMS: Record<ClaimRole, readonly string[]> = {
  given_name: ['CurrentGivenName', 'given_name'],
  family_name: ['CurrentFamilyName', 'family_name'],
  birthdate: ['DateOfBirth', 'birthdate'],
  person_identifier: ['PersonIdentifier', 'sub'],
};

export type ClaimMapping = Partial<Record<ClaimRole, string>>;

function claimOf(claims: Record<string, unknown>, role: ClaimRole, mapping: ClaimMapping): unknown {
  const names = mapping[role] ? [mapping[role], ...BUILT_IN_CLAIMS[role]] : BUILT_IN_CLAIMS[role];
  for (const name of names) {
    const v = claims[name];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/** The identity of a sign-in; null when there is no person identifier at all (nothing to key on). */
export function identityFromClaims(
  claims: Record<string, unknown>,
  mapping: ClaimMapping = {},
): NiaIdentity | null {
  const personIdentifier = text(claimOf(claims, 'person_identifier', mapping));
  if (!personIdentifier) return null;
  const first = text(claimOf(claims, 'given_name', mapping));
  const last = text(claimOf(claims, 'family_name', mapping));
  const birth = birthDateOf(claimOf(claims, 'birthdate', mapping));
  return {
    complete: first !== null && last !== null && birth !== null,
    first_name: first,
    last_name: last,
    birth_date: birth,
    person_identifier: personIdentifier,
  };
}
