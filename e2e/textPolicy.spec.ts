import type { Page } from '@playwright/test';
import { expect, fillWithoutDocument, type Lang, test } from './fixtures.js';

/**
 * The text policy on the field (issue 33 items 9 and 10, docs/submit-and-pdf.md "Text policy"):
 * a character the PDF cannot print is named in the message under the field, an invisible
 * right-to-left mark and too many line breaks are refused, in Czech and English; the stay-abroad
 * reason says what it admits.
 */

const TEXT = {
  cs: {
    unprintable: 'Znak „中“ (U+4E2D) nelze na žádost vytisknout.',
    invisible: 'Odstraňte řídicí nebo neviditelné znaky',
    lines: 'Použijte nejvýše 20 zalomení řádku.',
    addAbroad: 'Přidat pobyt v zahraničí',
    hint: 'Písmena latinky, řecké abecedy nebo cyrilice, číslice a běžná interpunkce; nejvýše 20 zalomení řádku.',
  },
  en: {
    unprintable: 'The character “中” (U+4E2D) cannot be printed on the request.',
    invisible: 'Remove the control or invisible characters',
    lines: 'Use at most 20 line breaks.',
    addAbroad: 'Add a stay abroad',
    hint: 'Letters of Latin, Greek or Cyrillic script, digits and common punctuation; at most 20 line breaks.',
  },
} as const;

/** The texts the field points to (aria-describedby: its hint and its message). */
async function described(page: Page, id: string): Promise<string> {
  const ids = (await page.locator(`#${id}`).getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(/\s+/)
      .filter(Boolean)
      .map((d) => page.locator(`#${d}`).textContent()),
  );
  return texts.join(' ');
}

for (const lang of ['cs', 'en'] as Lang[]) {
  test(`the text policy's messages on the field (${lang})`, async ({ page }) => {
    const x = TEXT[lang];
    await fillWithoutDocument(page, lang);

    const first = page.locator('#first_name');
    await first.fill('Jana 中');
    await expect(first).toHaveAttribute('aria-invalid', 'true');
    await expect.poll(() => described(page, 'first_name')).toContain(x.unprintable);
    await first.fill('Jana');
    await expect(first).not.toHaveAttribute('aria-invalid', 'true');

    const last = page.locator('#last_name');
    await last.fill('Nov\u200Fák');
    await expect(last).toHaveAttribute('aria-invalid', 'true');
    await expect.poll(() => described(page, 'last_name')).toContain(x.invisible);

    // The stay-abroad reason says what it admits, and refuses a 21st line break.
    await page.getByRole('button', { name: x.addAbroad }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const reason = page.locator('#abroad_stay-0-reason');
    await expect.poll(() => described(page, 'abroad_stay-0-reason')).toContain(x.hint);
    await reason.fill(Array.from({ length: 22 }, (_, i) => `řádek ${i + 1}`).join('\n'));
    await expect(reason).toHaveAttribute('aria-invalid', 'true');
    await expect.poll(() => described(page, 'abroad_stay-0-reason')).toContain(x.lines);
    await reason.fill(Array.from({ length: 21 }, (_, i) => `řádek ${i + 1}`).join('\n'));
    await expect(reason).not.toHaveAttribute('aria-invalid', 'true');
  });
}
