import type { StaffRole } from '../staff.js';

/**
 * The staff the local provider (/urad-test) offers (docs/console-signin.md "The local test
 * provider"): one of each role and one the provider releases no role for. Stable subjects, so
 * that the audit trail of a demo reads the same every time.
 */
export interface TestStaff {
  /** The provider's `sub`. */
  subject: string;
  name: string;
  given_name: string;
  family_name: string;
  /** The role claim's value: a string, an array (the highest wins), or none at all. */
  role: StaffRole | StaffRole[] | null;
  /** What the picker page says of the role. */
  label: string;
}

export const TEST_STAFF: readonly TestStaff[] = [
  {
    subject: 'test-reader',
    name: 'Alena Čtenářová',
    given_name: 'Alena',
    family_name: 'Čtenářová',
    role: 'reader',
    label: 'čtenář (jen prohlíží)',
  },
  {
    subject: 'test-clerk',
    name: 'Karel Úředník',
    given_name: 'Karel',
    family_name: 'Úředník',
    role: 'clerk',
    label: 'referent (vyřizuje žádosti)',
  },
  {
    subject: 'test-admin',
    name: 'Marie Správcová',
    given_name: 'Marie',
    family_name: 'Správcová',
    // An array, as many providers send roles: the highest one counts.
    role: ['clerk', 'admin'],
    label: 'správce (vyřizuje, audit a správa)',
  },
  {
    subject: 'test-norole',
    name: 'Petr Bezrole',
    given_name: 'Petr',
    family_name: 'Bezrole',
    role: null,
    label: 'bez role (konzole ho odmítne)',
  },
];

export const testStaff = (subject: string): TestStaff | undefined =>
  TEST_STAFF.find((s) => s.subject === subject);

/** The claims the provider releases for a test staff member (the role under the configured claim name). */
export function testStaffClaims(s: TestStaff, roleClaim: string): Record<string, unknown> {
  const claims: Record<string, unknown> = {
    sub: s.subject,
    name: s.name,
    given_name: s.given_name,
    family_name: s.family_name,
  };
  if (s.role !== null) claims[roleClaim] = s.role;
  return claims;
}
