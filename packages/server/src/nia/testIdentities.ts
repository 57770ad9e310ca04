import { DEMO_PERSONS } from '../demo/persons.js';

/**
 * The identities the local NIA-like provider offers (docs/nia.md): every demo person of the
 * register that has a NIA identifier (demo/persons.ts), one person the register does not know,
 * and one for whom NIA releases no birth date (an incomplete identity).
 */
export interface TestIdentity {
  /** PersonIdentifier (and `sub`): what persons.nia_identifier holds. */
  id: string;
  /** Shown on the picker page. */
  label: { cs: string; en: string };
  claims: Record<string, string>;
}

function fromDemo(): TestIdentity[] {
  const out: TestIdentity[] = [];
  for (const p of DEMO_PERSONS) {
    if (!p.nia_identifier) continue;
    const d = p.person;
    const claims: Record<string, string> = {
      CurrentGivenName: d.jmeno,
      CurrentFamilyName: d.prijmeni,
      PersonIdentifier: p.nia_identifier,
    };
    if (d.dat_nar) claims.DateOfBirth = d.dat_nar;
    const address = [d.ulice, [d.psc, d.mesto].filter(Boolean).join(' ')].filter(Boolean).join(', ');
    if (address) claims.CurrentAddress = address;
    if (d.misto_nar && !/^\d+$/.test(d.misto_nar)) claims.PlaceOfBirth = d.misto_nar;
    if (d.email) claims.eMail = d.email;
    const born = d.dat_nar ?? '';
    out.push({
      id: p.nia_identifier,
      label: {
        cs: `${d.jmeno} ${d.prijmeni}, nar. ${born} (v registru, osoba ${p.id})`,
        en: `${d.jmeno} ${d.prijmeni}, born ${born} (in the register, person ${p.id})`,
      },
      claims,
    });
  }
  return out;
}

export const NOT_IN_REGISTER_ID = 'demo-nia-unknown';
export const INCOMPLETE_ID = 'demo-nia-incomplete';

export const TEST_IDENTITIES: readonly TestIdentity[] = [
  ...fromDemo(),
  {
    id: NOT_IN_REGISTER_ID,
    label: {
      cs: 'Jana Nováková, nar. 1995-01-20 (není v registru)',
      en: 'Jana Nováková, born 1995-01-20 (not in the register)',
    },
    claims: {
      CurrentGivenName: 'Jana',
      CurrentFamilyName: 'Nováková',
      DateOfBirth: '1995-01-20',
      PersonIdentifier: NOT_IN_REGISTER_ID,
      CurrentAddress: 'Lidická 1, 602 00 Brno',
      PlaceOfBirth: 'Brno',
      eMail: 'jana.novakova@example.cz',
    },
  },
  {
    id: INCOMPLETE_ID,
    label: {
      cs: 'Petr Neúplný (NIA nevydá datum narození: neúplné údaje)',
      en: 'Petr Neúplný (NIA releases no birth date: incomplete data)',
    },
    claims: {
      CurrentGivenName: 'Petr',
      CurrentFamilyName: 'Neúplný',
      PersonIdentifier: INCOMPLETE_ID,
    },
  },
];

export function testIdentity(id: string): TestIdentity | undefined {
  return TEST_IDENTITIES.find((i) => i.id === id);
}
