import {
  CORRECTION_STATUSES,
  formatAccessCode,
  REQUEST_STATUSES,
  statusPageAddress,
  statusPagePath,
} from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { gsm7Segments, gsm7Septets, toGsm7 } from './gsm7.js';
import { statusSms } from './texts.js';

/** Issue 36, point 9: every status SMS of both languages is GSM-7 and one segment. */
describe('SMS in GSM-7', () => {
  it('counts septets, the extension table as two, and refuses what is outside', () => {
    expect(gsm7Septets('ROS: abc')).toBe(8);
    expect(gsm7Septets('[€]')).toBe(6);
    expect(gsm7Septets('žádost')).toBeNull();
    expect(gsm7Septets('a – b')).toBeNull();
    expect(toGsm7('žádost – vyřízena: Řež, é ä')).toBe('zadost - vyrizena: Rez, é ä');
    expect(gsm7Segments('x'.repeat(160))).toBe(1);
    expect(gsm7Segments('x'.repeat(161))).toBe(2);
  });

  it('every status SMS of both languages, with a long public address, is one GSM-7 segment', () => {
    const reference = 'ROS-2026-000123456';
    const code = 'ABCDEFGHJKLM';
    for (const lang of ['cs', 'en'] as const) {
      const link = `https://ros.caa.gov.cz${statusPagePath(lang, reference, code)}`;
      for (const status of REQUEST_STATUSES.filter((s) => s !== 'new')) {
        const text = statusSms({ lang, reference, status, link });
        expect(gsm7Septets(text), text).not.toBeNull();
        expect(gsm7Segments(text), text).toBe(1);
        expect(text).toContain(link);
        expect(text).not.toContain(formatAccessCode(code));
      }
    }
  });

  it('every correction SMS (issue 38) of both languages, with the page it links (notices.ts), is one GSM-7 segment', () => {
    const reference = 'ROS-2026-000123456';
    for (const lang of ['cs', 'en'] as const) {
      // The SMS links the bare status page (issue 33); a long public address.
      const link = `https://registr-ros.caa.gov.cz${statusPageAddress(lang)}`;
      for (const status of CORRECTION_STATUSES) {
        const text = statusSms({ lang, reference, status, link, correction: true });
        expect(gsm7Septets(text), text).not.toBeNull();
        expect(gsm7Segments(text), text).toBe(1);
        expect(text).toContain(link);
        expect(text).toMatch(lang === 'cs' ? /rozhodnuti opraveno/ : /decision corrected/);
      }
    }
  });
});
