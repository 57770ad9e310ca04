import type { Page } from '@playwright/test';
import { checkA11y, expect, test } from './fixtures.js';

/**
 * The person search step of the request form (issue 4) against the real server, its demo
 * people (docs/register.md) and the real ALTCHA widget solving the server's challenge.
 */

const TEXT = {
  cs: {
    first: 'Jméno',
    last: 'Příjmení',
    type: 'Typ dokladu',
    number: 'Číslo dokladu',
    birthNumber: 'Rodné číslo',
    idCard: 'Občanský průkaz ČR',
    search: 'Vyhledat',
    retry: 'Vyhledat podle rodného čísla',
    found: 'Našli jsme vás v registru',
    without: 'Vyplnit bez dokladu',
    manual: 'Vyplnění bez dokladu',
    notFound: 'Osobu s těmito údaji a tímto dokladem jsme nenašli',
    required: 'Tento údaj je povinný.',
    retryNotice: 'Zadejte prosím své rodné číslo',
  },
  en: {
    first: 'First name',
    last: 'Last name',
    type: 'Document type',
    number: 'Document number',
    birthNumber: 'Birth number',
    idCard: 'Czech identity card',
    search: 'Search',
    retry: 'Search by birth number',
    found: 'We found you in the register',
    without: 'Fill in without a document',
    manual: 'Filling in without a document',
    notFound: 'person',
    required: 'required',
    retryNotice: 'Please enter your birth number',
  },
} as const;

type Lang = keyof typeof TEXT;
const url = (path: string, lang: Lang) => (lang === 'en' ? `${path}?lang=en` : path);

async function fillSearch(page: Page, lang: Lang, first: string, last: string, number: string) {
  const x = TEXT[lang];
  await page.getByLabel(x.first, { exact: true }).fill(first);
  await page.getByLabel(x.last, { exact: true }).fill(last);
  await page.getByLabel(x.type).selectOption({ label: x.idCard });
  await page.getByLabel(x.number).fill(number);
}

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test.describe(`search step (${lang})`, () => {
    test('finds a person, ignoring case, diacritics and spaces, and shows the prefill', async ({ page }) => {
      await page.goto(url('/form', lang));
      const submit = page.getByTestId('search-submit');
      await expect(submit).toBeDisabled();
      await expect(page.getByLabel(x.number)).toBeDisabled();
      await checkA11y(page);

      await fillSearch(page, lang, '  ŠTĚPÁN ', 'dvorak', '123 456 789');
      await expect(submit).toBeEnabled();
      await submit.click();

      await expect(page.getByRole('heading', { name: x.found })).toBeVisible({ timeout: 20000 });
      // The request form is prefilled (e2e/form.spec.ts covers it in full).
      await expect(page.locator('#first_name')).toHaveValue('Štěpán');
      await expect(page.locator('#home_street')).toHaveValue('Korunní');
      await expect(page.locator('#document_type')).toHaveValue(x.idCard);
      await expect(page.locator('#birth_date')).toHaveValue('15.03.1985');
      await checkA11y(page);
    });

    test('no match: a warning, then "fill without document"', async ({ page }) => {
      await page.goto(url('/form', lang));
      await fillSearch(page, lang, 'Nikdo', 'Neexistuje', '000000000');
      await page.getByTestId('search-submit').click();
      await expect(page.getByRole('alert').or(page.locator('.alert')).first()).toBeVisible({
        timeout: 20000,
      });
      const without = page.getByRole('button', { name: x.without });
      await expect(without).toBeVisible();
      await checkA11y(page);
      await without.click();
      await expect(page.getByRole('heading', { name: x.manual })).toBeVisible();
      await expect(page.getByRole('heading', { name: x.manual })).toBeFocused();
    });

    test('shows the first error of a changed field, linked to it', async ({ page }) => {
      await page.goto(url('/form', lang));
      const first = page.getByLabel(x.first, { exact: true });
      await first.fill('Jan');
      await first.fill('');
      await expect(first).toHaveAttribute('aria-invalid', 'true');
      const describedBy = await first.getAttribute('aria-describedby');
      expect(describedBy).toBeTruthy();
      await expect(page.locator(`#${describedBy}`)).toContainText(x.required);
      // The last name was not touched: no message yet.
      await expect(page.getByLabel(x.last, { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
      await checkA11y(page);
    });

    test('duplicate mode: a person without a certificate retries by birth number', async ({ page }) => {
      await page.goto(url(lang === 'en' ? '/duplicate/form' : '/duplikat/form', lang));
      await fillSearch(page, lang, 'Karel', 'Procházka', '234567890');
      await page.getByTestId('search-submit').click();
      await expect(page.getByText(x.retryNotice)).toBeVisible({ timeout: 20000 });
      const bn = page.getByLabel(x.birthNumber, { exact: true });
      await expect(page.getByLabel(x.first, { exact: true })).toHaveAttribute('readonly', '');
      await bn.fill('7807041000');
      await page.getByRole('button', { name: x.retry }).click();
      await expect(page.getByRole('heading', { name: x.found })).toBeVisible({ timeout: 20000 });
      await expect(page.locator('#birth_number')).toHaveValue('780704/1000');
    });
  });
}

test('keyboard only: the search can be filled and sent without a mouse', async ({ page }) => {
  await page.goto('/form');
  await page.getByLabel('Jméno', { exact: true }).focus();
  await page.keyboard.type('Eva');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Marková');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.type('456789012');
  await page.getByTestId('search-submit').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Našli jsme vás v registru' })).toBeVisible({
    timeout: 20000,
  });
});
