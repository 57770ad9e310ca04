import { describe, expect, it } from 'vitest';
import { currentLegalVersion, legalStatements } from './index.js';

/** Issue 36, point 9: the SMS consent the dialog shows says what the SMS gateway receives. */
describe('the SMS consent of the current legal texts', () => {
  it.each([
    ['cs', /SMS brány.*číslo žádosti a nový stav žádosti \(přístupový kód ne\)/],
    ['en', /SMS gateway.*reference number and the new status of the request \(not the access code\)/],
  ] as const)('%s names the gateway, the reference and the status, not the access code', (lang, words) => {
    const contact = { email: 'a@example.cz', telephone: '603123456', dial_code: '+420' };
    const phone = legalStatements(
      currentLegalVersion(),
      lang,
      { channel: 'paper', duplicate: false },
      contact,
    ).find((s) => s.key === 'notify_phone');
    expect(phone?.text).toMatch(words);
    const noNumber = legalStatements(
      currentLegalVersion(),
      lang,
      { channel: 'nia', duplicate: false },
      { ...contact, telephone: '' },
    ).find((s) => s.key === 'notify_phone');
    expect(noNumber?.text).toMatch(words);
  });
});
