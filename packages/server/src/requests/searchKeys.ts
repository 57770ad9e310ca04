import { createHash } from 'node:crypto';
import { normalizeBirthNumber, normalizeName, type PersonIdentity } from '@ros/domain';

/**
 * What the authority's console finds a request by (issue 38, docs/console.md "The queue"): kept
 * in three columns of `requests` beside the payload, written with the request
 * (requests/store.ts), filled for older rows by migration 0014 and set to null by the erasure
 * with the rest of the personal data (retention/erase.ts).
 *
 * - `search_name`: surname and given names as `normalizeName` makes them (lower case, no
 *   diacritics, single spaces), "novak jan": a name search is a prefix of it, read through an
 *   index on both databases.
 * - `birth_date`: the ISO birth date, narrowing a name search.
 * - `birth_number_key`: a hash of the normalised birth number, for the exact birth-number search
 *   (the console never lists by it and never shows it).
 */
export interface SearchKeys {
  search_name: string | null;
  birth_date: string | null;
  birth_number_key: string | null;
}

/** The longest `search_name` kept (the column is varchar(200)). */
export const SEARCH_NAME_MAX = 200;

export function searchName(lastName: string, firstName: string): string {
  return `${normalizeName(lastName)} ${normalizeName(firstName)}`.trim().slice(0, SEARCH_NAME_MAX);
}

export function birthNumberKey(birthNumber: string): string | null {
  const rc = normalizeBirthNumber(birthNumber.trim());
  if (rc === '') return null;
  return createHash('sha256').update(`ros-console-rc\u0000${rc}`).digest('base64url').slice(0, 43);
}

/** A request's keys from its person's identity (its values: the names, birth date and birth number). */
export function searchKeysOf(values: PersonIdentity): SearchKeys {
  const name = searchName(values.last_name ?? '', values.first_name ?? '');
  const date = /^\d{4}-\d{2}-\d{2}$/.test(values.birth_date ?? '') ? values.birth_date : null;
  return {
    search_name: name === '' ? null : name,
    birth_date: date,
    birth_number_key: birthNumberKey(values.birth_number ?? ''),
  };
}
