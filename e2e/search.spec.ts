import {
  checkA11y,
  expect,
  fillSearch,
  formUrl,
  PEOPLE,
  passEarlyRefusal,
  SEARCH_TEXT,
  test,
  url,
} from './fixtures.js';

/**
 * The person search step of the request form (issue 4) against the real server, its demo
 * people (docs/register.md) and the real ALTCHA widget solving the server's challenge.
 */

const TEXT = {
  cs: {
    ...SEARCH_TEXT.cs,
    notFound: 'Osobu s těmito údaji a tímto dokladem jsme nenašli',
    required: 'Tento údaj je povinný.',
    retryNotice: 'Zadejte prosím své rodné číslo',
  },
  en: {
    ...SEARCH_TEXT.en,
    notFound: 'person',
    required: 'required',
    retryNotice: 'Please enter your birth number',
  },
} as const;

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test.describe(`search step (${lang})`, () => {
    test('finds a person, ignoring case, diacritics and spaces, and shows the prefill', async ({ page }) => {
      // axe on the whole prefilled form takes a while on a busy 2-core machine.
      test.setTimeout(90000);
      await page.goto(url('/form', lang));
      const submit = page.getByTestId('search-submit');
      await expect(submit).toHaveAttribute('aria-disabled', 'true');
      await expect(page.getByLabel(x.number)).toBeDisabled();
      await checkA11y(page);

      await fillSearch(page, lang, { first: '  ŠTĚPÁN ', last: 'dvorak', number: '123 456 789' });
      await expect(submit).not.toHaveAttribute('aria-disabled');
      await submit.click();

      await expect(page.getByRole('heading', { name: x.found })).toBeVisible({ timeout: 20000 });
      // Štěpán's certificate is valid for long: told so first (issue 36), then the form.
      await passEarlyRefusal(page);
      // The request form is prefilled (e2e/form.spec.ts covers it in full).
      await expect(page.locator('#first_name')).toHaveValue('Štěpán');
      await expect(page.locator('#home_street')).toHaveValue('Korunní');
      await expect(page.locator('#document_type')).toHaveValue(x.OP_CR);
      await expect(page.locator('#birth_date')).toHaveValue('15.03.1985');
      await checkA11y(page);
    });

    test('no match: a warning, then "fill without document"', async ({ page }) => {
      await page.goto(url('/form', lang));
      await fillSearch(page, lang, PEOPLE.nobody);
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
      await page.goto(formUrl(lang, true));
      await fillSearch(page, lang, PEOPLE.prochazka);
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

test('a search sent before the bot check has loaded waits for it', async ({ page }) => {
  // The ALTCHA module arrives late (slow network or device): it is held until after the click.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let requests = 0;
  await page.route('**/assets/altcha-*.js', async (route) => {
    requests++;
    await held;
    await route.continue();
  });
  await page.goto('/form');
  await fillSearch(page, 'cs', PEOPLE.dvorak);
  await page.getByTestId('search-submit').click();
  // The module was really held (its chunk name is what the route matches).
  expect(requests).toBeGreaterThan(0);
  release();
  await expect(page.getByRole('heading', { name: TEXT.cs.found })).toBeVisible({ timeout: 20000 });
});

test('keyboard only: the search can be filled and sent without a mouse', async ({ page }) => {
  await page.goto('/form');
  // The document types come with the reference lists: ArrowDown before they arrive picks nothing.
  await expect(page.locator('#type option').nth(1)).toBeAttached();
  await page.getByLabel('Jméno', { exact: true }).focus();
  await page.keyboard.type('Eva');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Marková');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('#type')).toHaveValue('OP_CR');
  await page.keyboard.press('Tab');
  await page.keyboard.type('456789012');
  await page.getByTestId('search-submit').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Našli jsme vás v registru' })).toBeVisible({
    timeout: 20000,
  });
});
