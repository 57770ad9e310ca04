import type { Page } from '@playwright/test';
import {
  checkA11y,
  chooseOption,
  expect,
  fillWithoutDocument,
  formUrl,
  openPrefilledForm,
  PEOPLE,
  pdfText,
  SEARCH_TEXT,
  sendRequest,
  submitSearch,
  test,
  tickDeclarations,
  url,
} from './fixtures.js';

/**
 * Duplicate mode (spec sections 2 and 4) against the real server and the demo people
 * (README, "People"): the duplicate search and its retry by birth number, the prefilled
 * duplicate form (hidden sections, read-only birth name and birth number), the duplicate
 * types, and finish -> confirmation -> submit -> success with the PDF read back.
 */

const TEXT = {
  cs: {
    ...SEARCH_TEXT.cs,
    basic: 'Vyplnit žádost bez přihlášení',
    heading: 'Žádost o vydání duplikátu dokladu o spolehlivosti',
    intro: 'se kterým jste žádali o doklad o spolehlivosti',
    notFound: 'Podle zadaných údajů jsme nenašli nikoho',
    retryNotice: 'Zadejte prosím své rodné číslo',
    retryFailed: 'Ani podle rodného čísla jsme doklad o spolehlivosti nenašli',
    newRequest: 'Podat novou žádost o doklad o spolehlivosti',
    typeLegend: 'Proč potřebujete duplikát?',
    // The server's duplicate-types list names the reasons, in the form as in the PDF.
    damaged: 'Poškození dokladu',
    stolen: 'Ztráta nebo odcizení dokladu',
    required: 'Vyberte, proč potřebujete duplikát',
    summary: 'Formulář obsahuje chyby',
    citizenship: 'Česká republika',
    dialog: 'Potvrzení a odeslání žádosti',
    send: 'Odeslat žádost',
    duplicatesInvalid: 'Duplikát bude pravděpodobně zamítnut',
    sendAnyway: 'Přesto odeslat žádost o duplikát',
    success: 'Žádost je připravena k podpisu a odeslání',
    again: 'Stáhnout žádost (PDF) znovu',
    pdf: {
      title: 'Žádost o vydání duplikátu dokladu o spolehlivosti',
      kind: 'Duplikát dokladu',
      section: 'Důvod vydání duplikátu',
      damaged: 'Poškození dokladu',
      stolen: 'Ztráta nebo odcizení dokladu',
      employer: 'Současný zaměstnavatel',
      abroad: 'Pobyty v zahraničí',
    },
  },
  en: {
    ...SEARCH_TEXT.en,
    basic: 'Fill in the request without signing in',
    heading: 'Request for a duplicate background-check certificate',
    intro: 'the identity document you used when you applied',
    notFound: 'We found no one holding a background-check certificate',
    retryNotice: 'Please enter your birth number',
    retryFailed: 'We found no certificate by the birth number either',
    newRequest: 'File a new request for a background-check certificate',
    typeLegend: 'Why do you need a duplicate?',
    damaged: 'Damaged document',
    stolen: 'Lost or stolen document',
    required: 'Choose why you need a duplicate',
    summary: 'There is a problem',
    citizenship: 'Czech Republic',
    dialog: 'Confirm and send your request',
    send: 'Send the request',
    duplicatesInvalid: 'A duplicate will probably be refused',
    sendAnyway: 'Send the duplicate request anyway',
    success: 'Your request is ready to sign and send',
    again: 'Download the request (PDF) again',
    pdf: {
      title: 'Request for a duplicate background-check certificate',
      kind: 'Duplicate certificate',
      section: 'Reason for the duplicate',
      damaged: 'Damaged document',
      stolen: 'Lost or stolen document',
      employer: 'Current employer',
      abroad: 'Stays abroad',
    },
  },
} as const;

type Lang = keyof typeof TEXT;

const shot = (page: Page, name: string, lang: Lang) =>
  process.env.ROS_E2E_SHOTS
    ? page.screenshot({ path: `e2e/.out/duplicate-${name}-${lang}.png`, fullPage: true })
    : null;

/** What duplicate mode hides (spec section 2): none of these controls is on the page. */
async function expectHiddenSections(page: Page) {
  for (const id of [
    'sex',
    'birth_date',
    'birth_state',
    'birth_municipality',
    'birth_district',
    'other_citizenships',
    'employer_current_name',
    'employer_current_from',
    'employer_current_description',
    'employer_verification_type',
  ]) {
    await expect(page.locator(`#${id}`), `#${id} is hidden in duplicate mode`).toHaveCount(0);
  }
  // (The "copy the permanent address" button shows here when the contact address is empty: issue 28.)
  for (const testId of ['coverage', 'add-activity', 'add-abroad']) {
    await expect(page.getByTestId(testId), `${testId} is hidden in duplicate mode`).toHaveCount(0);
  }
}

/**
 * The demo people without a contact address in the register type one in (duplicate mode offers
 * the "copy the permanent address" button too since issue 28; typed here, to check the fields).
 */
async function fillContactAddress(page: Page, lang: Lang) {
  await page.locator('#contact_street').fill('Letecká');
  await page.locator('#contact_house_num').fill('5');
  await page.locator('#contact_city').fill('Praha');
  await page.locator('#contact_zip').fill('160 08');
  await chooseOption(page, 'contact_state', TEXT[lang].citizenship);
}

/** The PDF text with runs of white space made single spaces (pdf.js splits lines into items). */
const flat = (s: string) => s.replace(/\s+/g, ' ');

// A different person per language: a second duplicate for one person within 30 days is flagged.
const PERSON = { cs: PEOPLE.markova, en: PEOPLE.horak } as const;

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test.describe(`duplicate mode (${lang})`, () => {
    test('from the duplicate home: prefilled form, types, confirm, submit and the PDF', async ({ page }) => {
      test.setTimeout(150000);
      if (lang === 'cs') await page.setViewportSize({ width: 375, height: 800 });
      const person = PERSON[lang];

      // The duplicate home opens the duplicate form (duplikat/form, duplicate/form).
      await page.goto(url(lang === 'cs' ? '/duplikat' : '/duplicate', lang));
      await page.getByRole('link', { name: x.basic }).click();
      await expect(page).toHaveURL(new RegExp(`/${lang === 'cs' ? 'duplikat' : 'duplicate'}/form`));
      await expect(page.getByRole('heading', { level: 1, name: x.heading })).toBeVisible();
      await expect(page.getByText(x.intro)).toBeVisible();
      await test.step('axe search', () => checkA11y(page));
      await shot(page, 'search', lang);

      await submitSearch(page, lang, person);
      const finish = page.getByTestId('finish');
      await expect(finish).toBeVisible({ timeout: 20000 });
      await expect(page.getByRole('heading', { name: x.found })).toBeFocused();

      // Read-only: birth name and birth number (and the identity and address data); the
      // current names stay editable (a duplicate may follow a change of name).
      await expect(page.locator('#birth_name')).toHaveAttribute('readonly', '');
      await expect(page.locator('#birth_number')).toHaveAttribute('readonly', '');
      await expect(page.locator('#birth_number')).toHaveValue(person.birthNumber);
      await expect(page.locator('#birth_number')).toBeEnabled();
      await expect(page.locator('#document_number')).toHaveAttribute('readonly', '');
      await expect(page.locator('#home_street')).toHaveAttribute('readonly', '');
      await expect(page.locator('#citizen_of_1')).toHaveAttribute('readonly', '');
      await expect(page.locator('#first_name')).toHaveValue(person.first);
      await expect(page.locator('#first_name')).not.toHaveAttribute('readonly', '');
      await expect(page.locator('#last_name')).not.toHaveAttribute('readonly', '');
      await expectHiddenSections(page);

      const types = page.getByRole('group', { name: x.typeLegend });
      const damaged = types.getByRole('checkbox', { name: x.damaged });
      const stolen = types.getByRole('checkbox', { name: x.stolen });
      await expect(damaged).not.toBeChecked();
      await expect(stolen).not.toBeChecked();
      await expect(finish).toHaveAttribute('data-state', 'invalid');
      await test.step('axe form', () => checkA11y(page));
      await shot(page, 'form', lang);

      // A type is required: finishing without one lists it in the error summary.
      await finish.click();
      const summary = page.getByTestId('error-summary');
      await expect(summary).toBeFocused();
      await expect(summary.getByRole('heading', { name: x.summary })).toBeVisible();
      await expect(summary.locator('a[href="#duplicate_type"]')).toContainText(x.required);
      // Its link moves focus to the first type (a fieldset itself takes no focus).
      await summary.locator('a[href="#duplicate_type"]').click();
      await expect(page.getByRole('checkbox', { name: x.damaged })).toBeFocused();
      await expect(page.locator('#duplicate_type-error')).toHaveText(x.required);
      await expect(page.locator('#duplicate_type')).toHaveAttribute(
        'aria-describedby',
        'duplicate_type-error',
      );
      await test.step('axe type required', () => checkA11y(page));
      await shot(page, 'required', lang);
      // No month coverage is needed: with a contact address only the type is missing.
      await fillContactAddress(page, lang);
      await expect(summary.getByRole('link')).toHaveCount(1);

      // POSKOZENI and ODCIZENI exclude each other; the keyboard (Space) ticks them too.
      await damaged.check();
      await expect(damaged).toBeChecked();
      await expect(page.locator('#duplicate_type-error')).toHaveCount(0);
      await expect(finish).toHaveAttribute('data-state', 'valid');
      await stolen.focus();
      await page.keyboard.press('Space');
      await expect(stolen).toBeChecked();
      await expect(damaged).not.toBeChecked();
      await damaged.click();
      await expect(damaged).toBeChecked();
      await expect(stolen).not.toBeChecked();
      // Unticking the only type brings the error back.
      await damaged.click();
      await expect(damaged).not.toBeChecked();
      await expect(page.locator('#duplicate_type-error')).toHaveText(x.required);
      await expect(finish).toHaveAttribute('data-state', 'invalid');
      const chosen = lang === 'cs' ? stolen : damaged;
      await chosen.check();
      await expect(finish).toHaveAttribute('data-state', 'valid');
      await test.step('axe types', () => checkA11y(page));

      // Finish -> the confirmation dialog (the person holds a valid certificate: no warning).
      await finish.click();
      const dialog = page.getByRole('dialog', { name: x.dialog });
      await expect(dialog).toBeVisible();
      await expect(page.getByTestId('confirm-warning')).toHaveCount(0);
      const send = dialog.getByRole('button', { name: x.send, exact: true });
      await expect(send).toHaveAttribute('aria-disabled', 'true');
      await tickDeclarations(page);
      await expect(send).not.toHaveAttribute('aria-disabled');
      await test.step('axe dialog', () => checkA11y(page));
      await shot(page, 'dialog', lang);

      const { reference, download } = await sendRequest(page, send, x.success);
      // No stays abroad in a duplicate: no attachment note.
      await expect(page.getByTestId('attachment-alert')).toHaveCount(0);
      await test.step('axe success', () => checkA11y(page));
      await shot(page, 'success', lang);

      const file = await download;
      expect(file.suggestedFilename()).toBe(`${reference}.pdf`);
      if (process.env.ROS_E2E_SHOTS) await file.saveAs(`e2e/.out/duplicate-${lang}.pdf`);
      const text = flat(await pdfText(await file.path()));
      expect(text).toContain(reference);
      expect(text).toContain(x.pdf.title);
      expect(text).toContain(x.pdf.kind);
      expect(text).toContain(x.pdf.section);
      expect(text).toContain(lang === 'cs' ? x.pdf.stolen : x.pdf.damaged);
      expect(text).not.toContain(lang === 'cs' ? x.pdf.damaged : x.pdf.stolen);
      expect(text).toContain(person.last);
      expect(text).toContain(person.birthNumber);
      // The sections duplicate mode hides are not in the PDF either.
      expect(text).not.toContain(x.pdf.employer);
      expect(text).not.toContain(x.pdf.abroad);
      expect(await page.evaluate(() => sessionStorage.getItem('ros-form-draft'))).toBeNull();
    });

    test('no certificate: not found, the birth-number retry and its failure', async ({ page }) => {
      test.setTimeout(120000);
      // Nobody with these details: the persistent not-found warning and a link to a new request.
      await page.goto(formUrl(lang, true));
      await submitSearch(page, lang, PEOPLE.nobody);
      await expect(page.getByText(x.notFound)).toBeVisible({ timeout: 20000 });
      const newRequest = page.getByRole('link', { name: x.newRequest });
      await expect(newRequest).toBeVisible();
      await expect(newRequest).toHaveAttribute('href', url('/form', lang));
      await expect(page.getByRole('button', { name: x.without })).toBeVisible();
      await test.step('axe not found', () => checkA11y(page));
      await shot(page, 'not-found', lang);

      // Found without a certificate: names and document are locked, the birth number is asked for.
      await page.goto(formUrl(lang, true));
      await submitSearch(page, lang, PEOPLE.prochazka);
      await expect(page.getByText(x.retryNotice)).toBeVisible({ timeout: 20000 });
      await expect(page.getByLabel(x.first, { exact: true })).toHaveAttribute('readonly', '');
      await expect(page.getByLabel(x.last, { exact: true })).toHaveAttribute('readonly', '');
      await expect(page.getByLabel(x.type)).toBeDisabled();
      await expect(page.getByLabel(x.number)).toBeDisabled();
      const bn = page.getByLabel(x.birthNumber, { exact: true });
      await expect(bn).toBeVisible();
      const retry = page.getByRole('button', { name: x.retry });
      // Required and format-checked: the retry waits for a well-formed number.
      await expect(retry).toHaveAttribute('aria-disabled', 'true');
      await bn.fill('12345');
      await expect(bn).toHaveAttribute('aria-invalid', 'true');
      await expect(retry).toHaveAttribute('aria-disabled', 'true');
      await test.step('axe retry', () => checkA11y(page));
      await shot(page, 'retry', lang);

      // A birth number nobody has: the retry-failed warning and the new-request link.
      await bn.fill('800101/1234');
      await expect(bn).not.toHaveAttribute('aria-invalid', 'true');
      await retry.click();
      await expect(page.getByText(x.retryFailed)).toBeVisible({ timeout: 20000 });
      await expect(page.getByRole('link', { name: x.newRequest })).toBeVisible();
      await test.step('axe retry failed', () => checkA11y(page));
      await shot(page, 'retry-failed', lang);

      // The right one (without the slash) prefills the duplicate form, birth number read-only.
      await bn.fill(PEOPLE.prochazka.birthNumber.replace('/', ''));
      await retry.click();
      await expect(page.getByRole('heading', { name: x.found })).toBeVisible({ timeout: 20000 });
      await expect(page.locator('#birth_number')).toHaveValue(PEOPLE.prochazka.birthNumber);
      await expect(page.locator('#birth_number')).toHaveAttribute('readonly', '');
      await expect(page.locator('#birth_name')).toHaveAttribute('readonly', '');
      await expectHiddenSections(page);
      await test.step('axe retry prefilled', () => checkA11y(page));
    });
  });
}

test('an expired certificate: the confirmation dialog warns that no duplicate can be issued', async ({
  page,
}) => {
  const x = TEXT.cs;
  const finish = await openPrefilledForm(page, 'cs', PEOPLE.vesely, { duplicate: true });
  await fillContactAddress(page, 'cs');
  await page.getByRole('checkbox', { name: x.damaged }).check();
  await expect(finish).toHaveAttribute('data-state', 'valid');
  await finish.click();
  const dialog = page.getByRole('dialog', { name: x.dialog });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('data-variant', 'invalidDuplicates');
  await expect(page.getByTestId('confirm-warning')).toContainText(x.duplicatesInvalid);
  const send = dialog.getByRole('button', { name: x.sendAnyway });
  await expect(send).toHaveAttribute('aria-disabled', 'true');
  await tickDeclarations(page);
  await expect(send).not.toHaveAttribute('aria-disabled');
  await checkA11y(page);
  // Escape goes back to the form, focus on the finish button.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(finish).toBeFocused();
});

test('a duplicate from stays abroad in the register: no stays-abroad note, as in the PDF', async ({
  page,
}) => {
  test.setTimeout(120000);
  const x = TEXT.en;
  // Anna Kowalska's register data holds a stay abroad; duplicate mode hides that section.
  const finish = await openPrefilledForm(page, 'en', PEOPLE.kowalska, { duplicate: true });
  await expectHiddenSections(page);
  await fillContactAddress(page, 'en');
  await page.getByRole('checkbox', { name: x.stolen }).check();
  await expect(finish).toHaveAttribute('data-state', 'valid');
  await finish.click();
  const dialog = page.getByRole('dialog', { name: x.dialog });
  await tickDeclarations(page);
  const download = page.waitForEvent('download', { timeout: 60000 });
  await dialog.getByRole('button', { name: x.send, exact: true }).click();
  await expect(page.getByTestId('submit-success')).toBeVisible({ timeout: 60000 });
  const text = flat(await pdfText(await (await download).path()));
  expect(text).not.toContain(x.pdf.abroad);
  // No birth number: the PDF and the success screen both ask for a copy of the identity document,
  // and for nothing about stays abroad.
  expect(text).toContain('attach a copy of your identity document');
  const attachments = page.getByTestId('attachment-alert');
  // The success screen says it in the PDF's words (one source, @ros/domain legalTexts).
  await expect(attachments).toContainText('attach a copy of your identity document');
  await expect(attachments).not.toContainText('criminal record');
});

test('a duplicate without a document: a Czech citizen can enter the birth number', async ({ page }) => {
  test.setTimeout(90000);
  const x = TEXT.en;
  await fillWithoutDocument(page, 'en', { duplicate: true });
  await expectHiddenSections(page);
  // The birth date is hidden in duplicate mode, so it cannot be what enables the birth number.
  await chooseOption(page, 'citizen_of_1', x.citizenship);
  const bn = page.locator('#birth_number');
  await expect(bn).toHaveAttribute('aria-required', 'true');
  await expect(bn).toBeEnabled();
  await bn.fill('905201/1234');
  await expect(bn).not.toHaveAttribute('aria-invalid', 'true');
  await checkA11y(page);
});
