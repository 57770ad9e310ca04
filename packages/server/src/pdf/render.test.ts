import { defaultFormValues } from '@ros/domain';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import type { StoredRequest } from '../requests/repository.js';
import { buildPdfModel, type CodeNames } from './model.js';
import { loadFonts, renderPdf } from './render.js';

const names: CodeNames = {
  country: (c) => ({ CZ: 'Czech Republic' })[c] ?? c,
  listItem: (l, c) => `${l}:${c}`,
  municipality: (c) => c,
  district: (c) => c,
};

function request(language: 'cs' | 'en', first: string, last: string, viaNia = false): StoredRequest {
  return {
    id: 'y'.repeat(24),
    reference: 'ROS-2026-000007',
    language,
    duplicate: false,
    viaNia,
    values: { ...defaultFormValues(), first_name: first, last_name: last, home_state: 'CZ' },
    personKey: null,
    idempotencyKey: null,
    bodyHash: '',
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
    expect(en).toContain('Application');
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
