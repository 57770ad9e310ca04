import { defaultFormValues } from '@ros/domain';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import type { StoredRequest } from '../requests/repository.js';
import { AGREED } from '../test/applicant.js';
import { pdfQrCodes } from '../test/pdfQr.js';
import { loadFonts } from './fonts.js';
import { buildPdfModel, type CodeNames } from './model.js';
import { renderPdf } from './render.js';

const names: CodeNames = {
  country: (c) => ({ CZ: 'Czech Republic' })[c] ?? c,
  listItem: (l, c) => `${l}:${c}`,
  municipality: (c) => c,
  district: (c) => c,
};

function request(
  language: 'cs' | 'en',
  first: string,
  last: string,
  viaNia = false,
  activities = 0,
): StoredRequest {
  return {
    id: 'y'.repeat(24),
    reference: 'ROS-2026-000007',
    language,
    duplicate: false,
    viaNia,
    values: {
      ...defaultFormValues(),
      first_name: first,
      last_name: last,
      home_state: 'CZ',
      past_activities: Array.from({ length: activities }, (_, i) => ({
        from: `01/${2000 + i}`,
        to: `12/${2000 + i}`,
        type: '1',
        field1: 'Letiště Praha a.s.',
        field2: 'Pilot',
      })),
    },
    personKey: null,
    idempotencyKey: null,
    bodyHash: '',
    legal: AGREED,
    createdAt: '2026-06-30T22:30:00.000Z',
  };
}

/** The text a reader gets out of the PDF: what copy-paste, search and screen readers see. */
async function text(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  let out = '';
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    out += content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
  }
  await doc.destroy();
  return out;
}

describe('PDF text', { timeout: 60_000 }, () => {
  it('keeps every letter readable in an English PDF made after a Czech one (fonts are shared)', async () => {
    // The fonts are parsed once per thread: letters with a caron seen first must not take over
    // the plain letters' text mapping (c, C, r, z lost it once).
    const first = new PDFDocument({ font: null as unknown as string });
    first.registerFont('R', loadFonts().regular as unknown as string);
    first.font('R').text('Žádost, Česká, příčina');
    first.end();
    const cs = await text(await renderPdf(buildPdfModel(request('cs', 'Čeněk', 'Řezníček-Žižka'), names)));
    expect(cs).toContain('Čeněk');
    expect(cs).toContain('Řezníček-Žižka');
    const en = await text(await renderPdf(buildPdfModel(request('en', 'Cecil', 'Rozzi'), names)));
    expect(en).toContain('Request for a background-check certificate');
    expect(en).toContain('Czech Republic');
    expect(en).toContain('Cecil');
    expect(en).toContain('Rozzi');
  });

  it('after NIA sign-in says the request was submitted electronically, with no signature lines', async () => {
    for (const [lang, submitted, note, paper] of [
      [
        'en',
        'electronically, after NIA sign-in',
        'no handwritten signature is needed',
        "Applicant's signature",
      ],
      ['cs', 'elektronicky po přihlášení přes NIA', 'vlastnoruční podpis se nevyžaduje', 'Podpis žadatele'],
    ] as const) {
      const nia = await text(await renderPdf(buildPdfModel(request(lang, 'Jana', 'Nováková', true), names)));
      expect(nia).toContain(submitted);
      expect(nia).toContain(note);
      expect(nia).toContain('(NIA)');
      expect(nia).not.toContain(paper);
      const plain = await text(await renderPdf(buildPdfModel(request(lang, 'Jana', 'Nováková'), names)));
      expect(plain).toContain(paper);
      expect(plain).not.toContain(submitted);
    }
  });
});

/** The text of each page, as it is stored (no ligature folding, which pdf.js does by default). */
async function pageTexts(bytes: Buffer): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent({ disableNormalization: true });
    pages.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await doc.destroy();
  return pages;
}

describe('PDF layout', { timeout: 120_000 }, () => {
  it('has no ligature glyphs in its text layer: "certificate", not "certi\ufb01cate"', async () => {
    const pages = await pageTexts(await renderPdf(buildPdfModel(request('en', 'Filip', 'Fiala'), names)));
    const all = pages.join(' ');
    expect(all).not.toMatch(/[\ufb00-\ufb06]/);
    expect(all).toContain('certificate');
    expect(all).toContain('confirm');
    expect(all).toContain('Filip');
  });

  it('never leaves the signature block alone on the last page', async () => {
    // Growing requests move the end of the declarations across a page break, in both languages
    // and both signature variants (paper lines or the NIA note).
    for (const lang of ['cs', 'en'] as const) {
      for (const viaNia of [false, true]) {
        for (let n = 0; n <= 14; n++) {
          const model = buildPdfModel(request(lang, 'Jana', 'Nováková', viaNia, n), names);
          const pages = await pageTexts(await renderPdf(model));
          const last = pages[pages.length - 1] ?? '';
          const before = model.attachments
            ? model.attachments.heading
            : (model.declarations.items.at(-1)?.text.slice(0, 20) ?? '');
          expect(last, `${lang} nia=${viaNia} activities=${n}`).toContain(model.signature.heading);
          expect(last, `${lang} nia=${viaNia} activities=${n}: ${last.slice(0, 60)}`).toContain(before);
        }
      }
    }
  });

  it('carries the reference as a QR code on every page (rendered and decoded)', async () => {
    const bytes = await renderPdf(buildPdfModel(request('cs', 'Jana', 'Nováková', false, 14), names));
    const found = await pdfQrCodes(bytes);
    expect(found.length).toBeGreaterThan(2);
    expect(found).toEqual(Array.from({ length: found.length }, () => 'ROS-2026-000007'));
  });
});

describe('the status page on the PDF (issue 26)', { timeout: 120_000 }, () => {
  it('prints the access code next to the reference and the status link as a QR code on page 1', async () => {
    const url = 'https://ros.example.cz/stav-zadosti#ROS-2026-000007/ABCDEFGHJKLM';
    const bytes = await renderPdf(
      buildPdfModel(request('cs', 'Jana', 'Nováková'), names, undefined, null, { code: 'ABCDEFGHJKLM', url }),
    );
    const pages = await pageTexts(bytes);
    expect(pages[0]).toContain('Přístupový kód ke stavu žádosti');
    expect(pages[0]).toContain('ABCD-EFGH-JKLM');
    expect(pages[0]).toContain(url);
    // The left half: the reference's QR code is in the top right corner.
    expect(await pdfQrCodes(bytes, { pages: 1, leftHalf: true })).toEqual([url]);
  });
});
