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
    noPrefill: false,
    dataMailboxDelivery: Boolean(prefill.values.data_mailbox),
    // The proof that the search (or the NIA session) found this person: validate and submit send it.
    ...(typeof person.match === 'string' ? { match: person.match } : {}),
  };
}

/** Step 2 with nothing prefilled (filling in without a document, or `eid` without a session). */
export const manualStart = (): FormStart => ({
  values: defaultFormValues(),
  readOnly: [],
  noPrefill: true,
  dataMailboxDelivery: false,
});
