import {
  defaultFormContext,
  defaultFormValues,
  MAX_TEXT_LINES,
  textPolicyError,
  validateFormValues,
} from '@ros/domain';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { StoredRequest } from '../requests/repository.js';
import { AGREED } from '../test/applicant.js';
import { PDF_LABELS } from './labels.js';
import { MARGIN } from './layout.js';
import { buildPdfModel, type CodeNames } from './model.js';
import { renderPdf } from './render.js';

/**
 * Every applicant value on the paper stands beside its label (issue 33 item 9): the spoofing
 * reason of the attack (about 140 line breaks, then the authority's "statement" and a stamp) is
 * refused by the text policy now, and the longest reason the policy admits (20 line breaks, long
 * lines) is read back from the PDF: each of its pieces in the value column, on a page whose label
 * column names it ("Reason for the stay", then "… (continued)"), and never below the declarations.
 */

const names: CodeNames = {
  country: (c) => ({ CZ: 'Czech Republic', DE: 'Germany' })[c] ?? c,
  listItem: (l, c) => `${l}:${c}`,
  municipality: (c) => c,
  district: (c) => c,
};

const SPOOF =
  'VYJÁDŘENÍ ÚŘADU PRO CIVILNÍ LETECTVÍ Žadatel byl prověřen a shledán spolehlivým Razítko a podpis';

function request(language: 'cs' | 'en', reason: string): StoredRequest {
  return {
    id: 'z'.repeat(24),
    reference: 'ROS-2026-000033',
    language,
    duplicate: false,
    viaNia: false,
    values: {
      ...defaultFormValues(),
      first_name: 'Jana',
      last_name: 'Nováková',
      home_state: 'CZ',
      abroad_stay: [{ state: 'DE', reason }],
    },
    personKey: null,
    idempotencyKey: null,
    bodyHash: '',
    legal: AGREED,
    createdAt: '2026-06-30T22:30:00.000Z',
  };
}

interface Item {
  page: number;
  x: number;
  y: number;
  str: string;
}

async function items(bytes: Buffer): Promise<Item[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const out: Item[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent({ disableNormalization: true });
    for (const i of content.items)
      if ('str' in i && i.str.trim() !== '')
        out.push({ page: p, x: i.transform[4] as number, y: i.transform[5] as number, str: i.str });
  }
  await doc.destroy();
  return out;
}

describe('PDF: every applicant value under its label (issue 33 item 9)', { timeout: 120_000 }, () => {
  it("refuses the attack's reason: about 140 line breaks before the spoofed statement", () => {
    const reason = `Studium${'\n'.repeat(140)}${SPOOF}`;
    expect(textPolicyError(reason, { multiline: true })).toBe('tooManyLines');
    const values = request('cs', reason).values;
    const issues = validateFormValues(values, defaultFormContext());
    expect(issues).toContainEqual(
      expect.objectContaining({ path: ['abroad_stay', 0, 'reason'], key: 'tooManyLines' }),
    );
  });

  for (const lang of ['cs', 'en'] as const) {
    it(`puts a reason of ${MAX_TEXT_LINES + 1} long lines beside its label, continued on the next page (${lang})`, async () => {
      const labels = PDF_LABELS[lang];
      const line = (i: number) =>
        `R${String(i).padStart(2, '0')} ${SPOOF} ${'slovo '.repeat(12)}`.trim().slice(0, 185);
      const reason = Array.from({ length: MAX_TEXT_LINES + 1 }, (_, i) => line(i + 1)).join('\n');
      expect(reason.length).toBeLessThanOrEqual(3993);
      expect(textPolicyError(reason, { multiline: true })).toBeNull();
      const all = await items(await renderPdf(buildPdfModel(request(lang, reason), names)));

      const valueX = Math.min(...all.filter((i) => /^R\d\d /.test(i.str)).map((i) => i.x));
      expect(valueX).toBeGreaterThan(MARGIN.left + 100);
      // Every piece of the reason is in the value column, none in the label column or across the page.
      const pieces = all.filter(
        (i) => i.str.includes('VYJÁDŘENÍ') || i.str.includes('slovo') || /^R\d\d/.test(i.str),
      );
      expect(pieces.length).toBeGreaterThan(MAX_TEXT_LINES);
      for (const p of pieces) expect(p.x, p.str).toBeGreaterThanOrEqual(valueX - 0.5);
      // Each page with a piece of it names it in the label column, at or above its first piece.
      const pages = [...new Set(pieces.map((p) => p.page))];
      expect(pages.length).toBeGreaterThan(1);
      pages.forEach((page, n) => {
        const label =
          n === 0
            ? labels.columns.abroad_stay.reason
            : `${labels.columns.abroad_stay.reason} ${labels.continued}`;
        const onPage = all.filter((i) => i.page === page && i.x < valueX - 20);
        const labelText = onPage.map((i) => i.str).join(' ');
        expect(labelText, `page ${page}`).toContain(label);
        const top = Math.max(...pieces.filter((p) => p.page === page).map((p) => p.y));
        const labelItem = onPage.find((i) => label.startsWith(i.str.trim()) && i.str.trim().length > 3);
        expect(labelItem && labelItem.y >= top - 2, `page ${page}`).toBe(true);
      });
      // All 21 lines made it, in order, and nothing of it comes after the declarations' heading.
      const order = pieces.map((p) => /^R(\d\d)/.exec(p.str)?.[1]).filter(Boolean);
      expect(order).toEqual(
        Array.from({ length: MAX_TEXT_LINES + 1 }, (_, i) => String(i + 1).padStart(2, '0')),
      );
      const declarations = all.findIndex((i) => i.str.includes(labels.sections.declarations));
      expect(declarations).toBeGreaterThan(all.indexOf(pieces[pieces.length - 1] as Item));
    });
  }
});
