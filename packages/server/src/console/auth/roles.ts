import { isStaffRole, type StaffRole } from '../staff.js';

/**
 * What the provider's claims mean for the console (docs/console-signin.md "The role"): the role,
 * from ROS_CONSOLE_SUBJECTS when that list is set, else from the configured claim; and the name
 * shown in the console's header.
 */

const RANK: Record<StaffRole, number> = { reader: 1, clerk: 2, admin: 3 };

/** The longest subject the console takes: the audit trail's actor `staff:SUBJECT` holds 120 characters. */
export const MAX_SUBJECT_LENGTH = 114;

type Claims = Record<string, unknown>;

/**
 * A claim by its name; a name with dots that is not itself a claim is followed as a path
 * (`realm_access.roles`), since some providers nest their roles.
 */
export function claimValue(claims: Claims, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  if (!name.includes('.')) return undefined;
  let at: unknown = claims;
  for (const part of name.split('.')) {
    if (!at || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, part)) return undefined;
    at = (at as Claims)[part];
  }
  return at;
}

/** The highest of reader/clerk/admin in a claim that is a string or an array; anything else: no role. */
export function roleFromClaim(value: unknown): StaffRole | null {
  const values: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  let best: StaffRole | null = null;
  for (const v of values) if (isStaffRole(v) && (!best || RANK[v] > RANK[best])) best = v;
  return best;
}

/** The role of a signed-in subject: the subject list when set (the claim is then not read), else the claim. */
export function staffRole(
  subject: string,
  claims: Claims,
  opts: { roleClaim: string; subjects: ReadonlyMap<string, StaffRole> | null },
): StaffRole | null {
  if (opts.subjects) return opts.subjects.get(subject) ?? null;
  return roleFromClaim(claimValue(claims, opts.roleClaim));
}

/** Whether the role must still be looked for in userinfo (the ID token does not carry the claim). */
export const roleClaimMissing = (
  claims: Claims,
  opts: { roleClaim: string; subjects: ReadonlyMap<string, StaffRole> | null },
): boolean => !opts.subjects && claimValue(claims, opts.roleClaim) === undefined;

const text = (v: unknown): string => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');

/** `name`, else given and family name, else the subject; at most 200 characters. */
export function displayName(claims: Claims, subject: string): string {
  const full =
    text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return (full || subject).slice(0, 200);
}

/** Whether the claims name the person (else userinfo is asked, when there is one). */
export const hasName = (claims: Claims): boolean =>
  !!(text(claims.name) || text(claims.given_name) || text(claims.family_name));
