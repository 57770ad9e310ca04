import { defaultFormValues, prefillFromRegister, type SearchAnswer } from '@ros/domain';
import type { FormStart } from './RequestForm';

/**
 * Step 2's start from a person the register knows: the one prefill path, used by the search
 * step (a match) and by the NIA sign-in (the session's `szr`). The mapping and the read-only
 * rules are @ros/domain's `prefillFromRegister`.
 */
export function startFromPerson(person: SearchAnswer, duplicate: boolean): FormStart {
  const prefill = prefillFromRegister(person, { duplicate });
  return {
    values: { ...defaultFormValues(), ...prefill.values },
    readOnly: prefill.readOnly,
    // The register person's form context, as the server derives it on submit (registerFormContext).
    noPrefill: prefill.context.noPrefill,
    dataMailboxDelivery: prefill.context.dataMailboxDelivery,
    czechCitizen: prefill.context.czechCitizen,
    // The proof that the search (or the NIA session) found this person: validate and submit send it.
    ...(typeof person.match === 'string' ? { match: person.match } : {}),
  };
}

/** What the search step had typed: it goes on into step 2 (editable) when filling in without a document. */
export interface TypedInSearch {
  first_name: string;
  last_name: string;
  /** The document type's code and number. */
  type: string;
  number: string;
}

/** Step 2 with nothing prefilled (filling in without a document, or `eid` without a session). */
export const manualStart = (typed?: TypedInSearch): FormStart => {
  const values = defaultFormValues();
  if (typed) {
    values.first_name = typed.first_name.trim();
    values.last_name = typed.last_name.trim();
    // The last name copies into the birth name (still editable), as when typed in step 2.
    values.birth_name = values.last_name;
    values.document_type = typed.type;
    values.document_number = typed.number.trim();
  }
  // The birth name copied from the last name is not the user's own entry: it keeps following.
  return { values, readOnly: [], noPrefill: true, dataMailboxDelivery: false, birthNameTouched: false };
};
