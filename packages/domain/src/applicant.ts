// The applicant a request is for, by the form's values: the fields that say who they are (one
// definition: the server's keys of a person, its validate body and its comparisons read it) and
// the address the server writes to. The fields themselves are the catalogue's (fields.ts), and so
// is the form each is compared in (`compareAs`).

import { comparedValue, type FormFieldName, type FormValues } from './fields.js';

/**
 * The keys a person the register does not know is recognised by, strongest first
 * (docs/requirements.md, product decisions, "Validate"): the birth number (`rc`), else the NIA
 * person's identifier (`aifo`), else names, birth date and document number together (`ndd`). The
 * server keys a request's person by the first its values fill (requests/person.ts identityKey)
 * and looks the register up by it (intake/certificate.ts registerPersonsOf).
 */
export const PERSON_KEY_KINDS = ['rc', 'aifo', 'ndd'] as const;
export type PersonKeyKind = (typeof PERSON_KEY_KINDS)[number];

/**
 * The fields that say who a request is for, each with the key it is part of (PERSON_KEY_KINDS),
 * in the order of the identity (PersonIdentity) and of each key's fields: a key is the hash of its
 * fields' compared values in this order, and a request without any key is keyed by a hash of its
 * whole identity, so the order is that of the stored requests' keys. The validate body carries
 * them (validatePayload.ts).
 */
const IDENTITY_KEY_OF = {
  first_name: 'ndd',
  last_name: 'ndd',
  birth_date: 'ndd',
  birth_number: 'rc',
  aifo: 'aifo',
  document_number: 'ndd',
} as const satisfies { readonly [K in FormFieldName]?: PersonKeyKind };

export type PersonIdentityField = keyof typeof IDENTITY_KEY_OF;
/** The identity fields (IDENTITY_KEY_OF), in the identity's order. */
export const PERSON_IDENTITY_FIELDS = Object.keys(IDENTITY_KEY_OF) as readonly PersonIdentityField[];

/** A person key: its kind (the stored key's prefix, `rc:`) and its fields, in their order. */
export interface PersonKey {
  kind: PersonKeyKind;
  fields: readonly PersonIdentityField[];
}
/** The person keys, strongest first (PERSON_KEY_KINDS), each with its fields. */
export const PERSON_KEYS: readonly PersonKey[] = PERSON_KEY_KINDS.map((kind) => ({
  kind,
  fields: PERSON_IDENTITY_FIELDS.filter((field) => IDENTITY_KEY_OF[field] === kind),
}));

/** A key's values of an identity, each as its field is compared (comparedValue; '' when empty). */
export function personKeyValues(
  key: PersonKey,
  values: { readonly [K in PersonIdentityField]?: string | null },
): string[] {
  return key.fields.map((field) => comparedValue(field, values[field] ?? ''));
}

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
