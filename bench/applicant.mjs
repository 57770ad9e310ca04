// What the bench scripts send as a browser would: a new applicant's complete request, the
// confirmation dialog's additions, a solved bot-check token (load.mjs, crash.mjs).
import { defaultFormValues } from '@ros/domain';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/** What the confirmation dialog adds to the body: the legal texts' version, the channel, boxes 1-3. */
export const AGREED = {
  legal_version: '1',
  legal_channel: 'paper',
  declaration_signature: true,
  declaration_affidavit: true,
  declaration_purpose: true,
};

/**
 * A complete request of a new applicant; `n` makes each one distinct. The server tests' applicant
 * (packages/server/src/test/applicant.ts, `newApplicant`), written out here because the bench runs
 * plain JavaScript against the build and that file is TypeScript outside it.
 */
export function applicant(n) {
  return {
    ...defaultFormValues(),
    first_name: 'Žofie',
    last_name: 'Řeháková',
    birth_name: 'Nováková',
    sex: '2',
    birth_date: '1992-11-23',
    birth_number: '926123/0006',
    birth_state: 'CZ',
    birth_municipality: '554782',
    birth_district: '40924',
    citizen_of_1: 'CZ',
    document_type: 'OP_CR',
    document_number: '987654321',
    home_street: 'Dlouhá',
    home_house_num: '12',
    home_city: 'Ústí nad Labem',
    home_zip: '400 01',
    home_state: 'CZ',
    employer_current_name: 'Letiště Václava Havla Praha',
    employer_current_from: '01/2015',
    employer_current_description: 'Bezpečnostní kontrola zavazadel',
    contact_street: 'Dlouhá',
    contact_house_num: '12',
    contact_city: 'Ústí nad Labem',
    contact_zip: '400 01',
    contact_state: 'CZ',
    telephone: '777 123 456',
    email: `load.${n}@example.cz`,
    delivery_type: 'EMAIL',
  };
}

export const json = (body, headers = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The `recaptcha` header of a solved ALTCHA challenge (the widget's payload, base64 JSON). */
export async function solveToken(challenge) {
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** A fresh challenge from `base`, solved. */
export async function botToken(base) {
  const r = await fetch(`${base}/api/ros/altcha-challenge`);
  if (r.status !== 200) throw new Error(`challenge answered ${r.status}`);
  return solveToken(await r.json());
}
