import { cleanup, screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { AlreadySent } from '../form/AlreadySent';
import { renderApp } from '../test/render';

/**
 * Issue 36, point 4: a paper request gets no confirmation e-mail, so the status page's form and
 * the "already sent" page never point its applicant to one: the PDF first, and the e-mail only as
 * that of a request sent after the citizen-identity sign-in.
 */
const NIA = { cs: 'po přihlášení identitou občana', en: 'after signing in with the citizen identity' };

describe('paper applicants are not pointed to an e-mail they never get', () => {
  for (const lang of ['cs', 'en'] as const) {
    it(`${lang}: the status form and the already-sent page`, async () => {
      const q = lang === 'en' ? '?lang=en' : '';
      renderApp({ path: `${lang === 'en' ? '/request-status' : '/stav-zadosti'}${q}` });
      const form = await screen.findByTestId('status-form');
      const intro = form.querySelector('p')?.textContent ?? '';
      expect(intro).toContain('PDF');
      expect(intro).toContain(NIA[lang]);
      cleanup();
      renderApp({ path: `/form${q}`, children: <AlreadySent headingRef={createRef()} onNew={() => {}} /> });
      const sent = (await screen.findByTestId('already-sent')).textContent ?? '';
      expect(sent).toContain('PDF');
      expect(sent).toContain(NIA[lang]);
      cleanup();
    });
  }
});
