// The applicant a request is for, by the form's values: the fields that say who they are (one
// list: the server's key of a person, its validate body and its comparisons read it) and the
// address the server writes to. The fields themselves are the catalogue's (fields.ts).

import type { FormValues } from './fields.js';

/**
 * The fields that say who a request is for (docs/requirements.md, product decisions,
 * "Validate"): the birth number, else the NIA person's identifier (AIFO), else names, birth
 * date and document number. The validate body carries them (validatePayload.ts); the server
 * keys a request's person by them (requests/person.ts identityKey).
 */
export const PERSON_IDENTITY_FIELDS = [
  'first_name',
  'last_name',
  'birth_date',
  'birth_number',
  'aifo',
  'document_number',
] as const satisfies ReadonlyArray<keyof FormValues>;
export type PersonIdentityField = (typeof PERSON_IDENTITY_FIELDS)[number];

/** Who a request is for: the identity fields' values (the birth date ISO 'YYYY-MM-DD' or ''). */
export type PersonIdentity = Pick<FormValues, PersonIdentityField>;

/** The identity of values that hold it (the form's, the validate body's); a field they lack is ''. */
export function personIdentity(
  values: { readonly [K in PersonIdentityField]?: string | null },
): PersonIdentity {
  return Object.fromEntries(PERSON_IDENTITY_FIELDS.map((f) => [f, values[f] ?? ''])) as PersonIdentity;
}

/** The fields of the contact details the legal texts fill in and the confirmation dialog shows. */
export const CONTACT_DETAIL_FIELDS = ['email', 'telephone', 'dial_code'] as const satisfies ReadonlyArray<
  keyof FormValues
>;

/** The contact details the legal texts fill in (the request's values, or the dialog's). */
export type ContactDetails = Pick<FormValues, 'email' | 'telephone'> & Partial<Pick<FormValues, 'dial_code'>>;

/** The e-mail address the applicant gave, trimmed ('' when none): where the server writes to. */
export function applicantEmail(values: Partial<ContactDetails>): string {
  return (values.email ?? '').trim();
}
