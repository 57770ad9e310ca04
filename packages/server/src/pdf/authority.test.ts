import { AUTHORITY, authorityPostalAddress } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { CODES_AS_THEY_ARE, pdfText, storedRequestOf } from '../test/pdfText.js';
import { buildPdfModel } from './model.js';
import { renderPdf } from './render.js';

/**
 * Issue 36: the paper people keep says where to send it. The PDF's intro (read back with pdf.js)
 * holds the authority's postal address and data-box ID of @ros/domain's AUTHORITY, the same the
 * success screen and the footer show (web: shell/authority.test.tsx).
 */

const names = CODES_AS_THEY_ARE;

describe("the PDF's intro says where to deliver it", { timeout: 120_000 }, () => {
  for (const language of ['cs', 'en'] as const)
    for (const viaNia of [false, true])
      it(`${language}, ${viaNia ? 'NIA (attachments)' : 'paper'}`, async () => {
        const text = await pdfText(await renderPdf(buildPdfModel(storedRequestOf(language, viaNia), names)));
        expect(text).toContain(authorityPostalAddress(language));
        expect(text).toContain(AUTHORITY.dataBox);
      });
});
