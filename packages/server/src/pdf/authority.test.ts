import { AUTHORITY, authorityPostalAddress, defaultFormValues } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import type { StoredRequest } from '../requests/repository.js';
import { AGREED } from '../test/applicant.js';
import { pdfText } from '../test/pdfText.js';
import { buildPdfModel, type CodeNames } from './model.js';
import { renderPdf } from './render.js';

/**
 * Issue 36: the paper people keep says where to send it. The PDF's intro (read back with pdf.js)
 * holds the authority's postal address and data-box ID of @ros/domain's AUTHORITY, the same the
 * success screen and the footer show (web: shell/authority.test.tsx).
 */

const names: CodeNames = {
  country: (c) => c,
  listItem: (_l, c) => c,
  municipality: (c) => c,
  district: (c) => c,
};

const request = (language: 'cs' | 'en', viaNia: boolean): StoredRequest => ({
  id: 'z'.repeat(24),
  reference: 'ROS-2026-000042',
  language,
  duplicate: false,
  viaNia,
  values: { ...defaultFormValues(), first_name: 'Cecil', last_name: 'Rozzi', home_state: 'CZ' },
  personKey: null,
  idempotencyKey: null,
  bodyHash: 'h',
  legal: AGREED,
  createdAt: '2026-11-26T10:00:00.000Z',
});

describe("the PDF's intro says where to deliver it", { timeout: 120_000 }, () => {
  for (const language of ['cs', 'en'] as const)
    for (const viaNia of [false, true])
      it(`${language}, ${viaNia ? 'NIA (attachments)' : 'paper'}`, async () => {
        const text = await pdfText(await renderPdf(buildPdfModel(request(language, viaNia), names)));
        expect(text).toContain(authorityPostalAddress(language));
        expect(text).toContain(AUTHORITY.dataBox);
      });
});
