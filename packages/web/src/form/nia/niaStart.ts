import { dateFromRegister, type PrefillField, type SearchAnswer } from '@ros/domain';
import type { SsoSession } from '../../api/sso';
import { manualStart, startFromPerson } from '../prefillStart';
import type { FormStart } from '../RequestForm';

/** What the search step's retry state starts from (duplicate mode, person without a certificate). */
export interface RetryFrom {
  first_name: string;
  last_name: string;
  type: string;
  number: string;
  /** The register person's match token (the session's `szr.match`): the retry's proof. */
  match?: string;
}

/**
 * Where a sign-in session leads (spec section 4, "Sign-in session"):
 * - `form`: step 2, prefilled from the register (`szr`) when it knows the person, else from the
 *   NIA identity only (the no-prefill flag set, as when filling in without a document);
 * - `retry`: duplicate mode, the register knows the person but holds no certificate: the search
 *   step's birth-number retry, as after a search;
 * - `not-found`: duplicate mode, the register does not know the person: no duplicate can be
 *   issued (the user may still fill in the request from the identity, `start`).
 * `incomplete` (NIA did not release a name or the birth date) adds the error card in every case.
 */
export type NiaPlan =
  | { kind: 'form'; start: FormStart; fromRegister: boolean; incomplete: boolean }
  | { kind: 'retry'; retryFrom: RetryFrom; incomplete: boolean }
  | { kind: 'not-found'; start: FormStart; incomplete: boolean };

const clean = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The NIA identity's fields as form values; only those NIA released (a bad date counts as not released). */
export function niaValues(
  session: SsoSession,
): Partial<Record<'first_name' | 'last_name' | 'birth_date', string>> {
  const out: Partial<Record<'first_name' | 'last_name' | 'birth_date', string>> = {};
  const first = clean(session.nia.first_name);
  const last = clean(session.nia.last_name);
  const date = dateFromRegister(clean(session.nia.birth_date));
  if (first) out.first_name = first;
  if (last) out.last_name = last;
  if (date) out.birth_date = date;
  return out;
}

/** Whether the session is missing a part of the identity (the flag, or a value that is not there). */
export function isIncomplete(session: SsoSession): boolean {
  const v = niaValues(session);
  return session.nia.complete === false || !v.first_name || !v.last_name || !v.birth_date;
}

/**
 * Puts the NIA identity on top of a start: first name, last name and birth date NIA released
 * become read-only (the server checks them against the identity); the AIFO goes with the request;
 * a known data mailbox is shown read-only and offers delivery to it (DATOVKOU).
 */
export function withNia(start: FormStart, session: SsoSession, fromRegister: boolean): FormStart {
  const values = { ...start.values };
  const readOnly = new Set<PrefillField>(start.readOnly);
  const nia = niaValues(session);
  for (const key of ['first_name', 'last_name', 'birth_date'] as const) {
    const v = nia[key];
    if (v) {
      values[key] = v;
      readOnly.add(key);
    }
  }
  // Without the register the birth name starts as the last name, as typing the last name does;
  // the user may change it.
  if (!fromRegister && values.birth_name === '' && nia.last_name) values.birth_name = nia.last_name;
  const aifo = clean(session.aifo);
  if (aifo) values.aifo = aifo;
  const databox = clean(session.databox);
  let dataMailboxDelivery = start.dataMailboxDelivery;
  if (databox) {
    values.data_mailbox = databox;
    readOnly.add('data_mailbox');
    dataMailboxDelivery = true;
  }
  return { ...start, values, readOnly: [...readOnly], dataMailboxDelivery };
}

/** Step 2 from the session and, when given, a person the register knows (the session's `szr` or a retry's match). */
export function niaStart(session: SsoSession, duplicate: boolean, person: SearchAnswer | null): FormStart {
  return person
    ? withNia(startFromPerson(person, duplicate), session, true)
    : withNia(manualStart(), session, false);
}

export function planNia(session: SsoSession, duplicate: boolean): NiaPlan {
  const incomplete = isIncomplete(session);
  const person = session.szr && typeof session.szr === 'object' ? session.szr : null;
  if (duplicate) {
    if (!person) return { kind: 'not-found', start: niaStart(session, duplicate, null), incomplete };
    if (!(session.record ?? person.record)) {
      const own = startFromPerson(person, true).values;
      const nia = niaValues(session);
      return {
        kind: 'retry',
        incomplete,
        retryFrom: {
          first_name: nia.first_name ?? own.first_name,
          last_name: nia.last_name ?? own.last_name,
          type: own.document_type,
          number: own.document_number,
          ...(typeof person.match === 'string' ? { match: person.match } : {}),
        },
      };
    }
  }
  return {
    kind: 'form',
    start: niaStart(session, duplicate, person),
    fromRegister: person !== null,
    incomplete,
  };
}

/**
 * A draft (a reload of the tab) belongs to this session when it holds the identity NIA gave,
 * read-only. Otherwise it is left over from before the sign-in and the session wins.
 */
export function draftFitsSession(draft: FormStart, session: SsoSession): boolean {
  const nia = niaValues(session);
  const keys = (['first_name', 'last_name', 'birth_date'] as const).filter((k) => nia[k]);
  return keys.length > 0 && keys.every((k) => draft.values[k] === nia[k] && draft.readOnly.includes(k));
}
