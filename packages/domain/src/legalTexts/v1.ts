import type { LegalTextVersion } from './types.js';

/**
 * Version 1: the texts of the confirmation dialog as the portal showed them from its first
 * release (packages/web's submit.json until issue 22), and the attachments notes of the PDF.
 * Requests stored before the version was recorded (migration 0012) were given these.
 * Never edit a shipped version: add a new one (docs/decisions/0006-legal-text-versions.md).
 */
export const LEGAL_TEXTS_V1: LegalTextVersion = {
  version: '1',
  since: '2026-01-01',
  texts: {
    cs: {
      signature: {
        paper:
          'Potvrzuji, že jsem žadatelem a že žádost po vytištění vlastnoručně podepíšu, případně ji podepíšu uznávaným elektronickým podpisem.',
        nia: 'Potvrzuji, že jsem žadatelem. Přihlásil(a) jsem se národní elektronickou identitou (NIA), která mě identifikuje místo vlastnoručního podpisu.',
      },
      affidavit: {
        new: 'Čestně prohlašuji, že všechny údaje uvedené v žádosti jsou pravdivé a úplné a že jsem nic nezamlčel(a).',
        duplicate:
          'Čestně prohlašuji, že všechny údaje uvedené v žádosti jsou pravdivé a úplné a že jsem nic nezamlčel(a).',
      },
      purpose:
        'Beru na vědomí, že Úřad pro civilní letectví zpracovává osobní údaje uvedené v žádosti za účelem ověření spolehlivosti podle nařízení (EU) 2015/1998, a to jen po dobu nezbytnou pro tento účel.',
      notify_email: 'Chci dostávat oznámení o vyřizování žádosti e-mailem na adresu {email}.',
      notify_phone: 'Chci dostávat oznámení o vyřizování žádosti zprávou SMS na číslo {phone}.',
      notify_phone_generic: 'Chci dostávat oznámení o vyřizování žádosti zprávou SMS.',
      attachments: {
        abroad:
          'Ke každému státu pobytu v zahraničí přiložte výpis z rejstříku trestů nebo obdobný doklad vydaný tímto státem.',
        identity: 'Nejste-li veden(a) v českých registrech, přiložte kopii dokladu totožnosti.',
      },
    },
    en: {
      signature: {
        paper:
          'I confirm that I am the applicant and that I will sign the printed request by hand, or sign it with a recognised electronic signature.',
        nia: 'I confirm that I am the applicant. I signed in through the national electronic identity (NIA), which identifies me instead of a handwritten signature.',
      },
      affidavit: {
        new: 'I solemnly declare that all information given in this request is true and complete and that I have not withheld anything.',
        duplicate:
          'I solemnly declare that all information given in this request is true and complete and that I have not withheld anything.',
      },
      purpose:
        'I acknowledge that the Civil Aviation Authority processes the personal data in this request for the background check under Regulation (EU) 2015/1998, and only for as long as that purpose requires.',
      notify_email: 'I want to receive notifications about my request by e-mail at {email}.',
      notify_phone: 'I want to receive notifications about my request by text message (SMS) at {phone}.',
      notify_phone_generic: 'I want to receive notifications about my request by text message (SMS).',
      attachments: {
        abroad:
          'For each country of a stay abroad, attach an extract from its criminal record or an equivalent document issued by that country.',
        identity: 'If you are not in the Czech registers, attach a copy of your identity document.',
      },
    },
  },
};
