import { defaultFormValues } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { PDF_LABELS } from '../pdf/labels.js';
import type { StoredRequest } from '../requests/repository.js';
import { AGREED } from '../test/applicant.js';
import { confirmationMail, niaAnswerText } from './confirmation.js';

function stored(duplicate: boolean): StoredRequest {
  return {
    id: 'z'.repeat(24),
    reference: 'ROS-2026-000042',
    language: 'en',
    duplicate,
    viaNia: true,
    values: { ...defaultFormValues(), first_name: 'Cecil', last_name: 'Rozzi', home_state: 'CZ' },
    personKey: null,
    idempotencyKey: null,
    bodyHash: 'h',
    legal: AGREED,
    createdAt: '2026-11-26T10:00:00.000Z',
  };
}

/** Every string inside a value (the PDF labels are nested records and lists). */
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

describe('English texts name the request one way (issue 13)', () => {
  it('the e-mail, the submit answer and the PDF say "request", never "application"', () => {
    const texts = [
      ...[false, true].flatMap((duplicate) => {
        const m = confirmationMail(stored(duplicate));
        return [m.subject, m.text, m.html];
      }),
      niaAnswerText(stored(false)),
      ...strings(PDF_LABELS.en),
    ];
    for (const t of texts) expect(t).not.toMatch(/application/i);
    expect(confirmationMail(stored(false)).subject).toBe(
      'Request ROS-2026-000042 sent to the Authority electronically – ROS register',
    );
    expect(confirmationMail(stored(true)).subject).toBe(
      'Duplicate request ROS-2026-000042 sent to the Authority electronically – ROS register',
    );
  });
});

describe('the access code of the status page in the confirmation (issue 26)', () => {
  it('prints the code and the link in the text and as a link in the HTML', () => {
    const url = 'https://ros.example.cz/request-status?lang=en#ROS-2026-000042/ABCDEFGHJKLM';
    const m = confirmationMail(stored(false), { code: 'ABCDEFGHJKLM', url });
    expect(m.text).toContain(
      `You can follow the request at ${url} (reference ROS-2026-000042, access code ABCD-EFGH-JKLM).`,
    );
    expect(m.html).toContain(`<a href="${url}">${url}</a>`);
    expect(confirmationMail(stored(false)).text).not.toContain('access code');
  });
});
