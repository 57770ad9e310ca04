import { currentLegalVersion, defaultFormValues, type FormValues } from '@ros/domain';
import type { AgreedTexts } from '../requests/repository.js';

/**
 * A complete, valid request of a new applicant the register does not know (no prefill), for
 * tests that need requests stored. Without an Idempotency-Key an identical body is a new request
 * (issue 33); with one, vary a field (say `email`) per key.
 */
export function newApplicant(over: Partial<FormValues> = {}): FormValues {
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
    home_org_num: '5',
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
    email: 'zofie.rehakova@example.cz',
    data_mailbox: 'abc1234',
    delivery_type: 'EMAIL',
    abroad_stay: [{ state: 'SK', reason: 'Studium v Bratislavě' }],
    send_notifications_email: true,
    ...over,
  };
}

/** The submit body's part the confirmation dialog adds: the current texts, 1-3 ticked (issue 22). */
export function agreed(channel: 'paper' | 'nia' = 'paper') {
  return {
    legal_version: currentLegalVersion(),
    legal_channel: channel,
    declaration_signature: true,
    declaration_affidavit: true,
    declaration_purpose: true,
  };
}

/** What a stored request agreed to, for tests that store or build requests directly. */
export function agreedTexts(
  values: Pick<FormValues, 'send_notifications_email' | 'send_notifications_phone'>,
): AgreedTexts {
  return {
    version: currentLegalVersion(),
    ticked: {
      signature: true,
      affidavit: true,
      purpose: true,
      notify_email: values.send_notifications_email,
      notify_phone: values.send_notifications_phone,
    },
  };
}

/** The boxes 1-3 ticked, no notification, of the current texts. */
export const AGREED: AgreedTexts = agreedTexts({
  send_notifications_email: false,
  send_notifications_phone: false,
});
