import type { LegalTextVersion } from './types.js';
import { LEGAL_TEXTS_V1 } from './v1.js';

/**
 * Version 2 (issue 36): the SMS consent says what the SMS gateway receives: the number, the
 * request's reference and its new status in words; never the access code (issue 33: the SMS links
 * the bare status page, docs/status.md "SMS"). Everything
 * else as version 1. Never edit a shipped version: add a new one (decision 6).
 */
const cs = LEGAL_TEXTS_V1.texts.cs;
const en = LEGAL_TEXTS_V1.texts.en;
const SMS_CS =
  ' Beru na vědomí, že zprávy odesílá poskytovatel SMS brány, který tak dostane telefonní číslo, číslo žádosti a nový stav žádosti (přístupový kód ne).';
const SMS_EN =
  ' I understand that the messages are sent through an SMS gateway provider, which thereby receives the telephone number, the reference number and the new status of the request (not the access code).';

export const LEGAL_TEXTS_V2: LegalTextVersion = {
  version: '2',
  since: '2026-12-01',
  texts: {
    cs: {
      ...cs,
      notify_phone: `${cs.notify_phone}${SMS_CS}`,
      notify_phone_generic: `${cs.notify_phone_generic}${SMS_CS}`,
    },
    en: {
      ...en,
      notify_phone: `${en.notify_phone}${SMS_EN}`,
      notify_phone_generic: `${en.notify_phone_generic}${SMS_EN}`,
    },
  },
};
