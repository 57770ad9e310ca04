import { AUTHORITY, authorityPostalAddress } from '@ros/domain';
import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SuccessView } from '../form/SuccessView';
import { renderApp } from '../test/render';

/**
 * Issue 36: the footer and the paper success screen give the authority's postal address and
 * data-box ID of @ros/domain's AUTHORITY, as the PDF's intro does (server: pdf/authority.test.ts).
 */
describe('where to send the request, one place', () => {
  for (const lang of ['cs', 'en'] as const) {
    it(`${lang}: the footer and the success screen`, async () => {
      renderApp({
        path: lang === 'en' ? '/form?lang=en' : '/form',
        children: (
          <SuccessView
            answer={{
              text: '',
              id: 'x'.repeat(24),
              reference: 'ROS-2026-000123',
              access_code: 'ABCD-EFGH-JKLM',
            }}
            attachments={[]}
          />
        ),
      });
      const success = await screen.findByTestId('submit-success');
      expect(success.textContent).toContain(authorityPostalAddress(lang));
      expect(success.textContent).toContain(AUTHORITY.dataBox);
      const footer = screen.getByTestId('footer-address');
      expect(footer.textContent).toContain(AUTHORITY.address[lang]);
      expect(footer.textContent).toContain(AUTHORITY.dataBox);
      cleanup();
    });
  }
});
