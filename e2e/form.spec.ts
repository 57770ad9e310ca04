import {
  checkA11y,
  chooseOption,
  expect,
  fillWithoutDocument,
  openPrefilledForm,
  passEarlyRefusal,
  test,
} from './fixtures.js';

/**
 * Step 2 of the request form (issue 5) against the real server, its reference lists and
 * demo people (docs/register.md): the full request, its reactions and its rules.
 */

const TEXT = {
  cs: {
    birthName: 'Rodné příjmení',
    sex: 'Pohlaví',
    male: 'Muž',
    birthDate: 'Datum narození',
    birthState: 'Stát narození',
    czechia: 'Česká republika',
    germany: 'Německo',
    municipality: 'Obec narození',
    district: 'Okres narození',
    birthNumber: 'Rodné číslo',
    citizen1: 'Státní občanství',
    citizen2: 'Druhé státní občanství',
    stateless: 'Bez státní',
    homeStreet: 'Ulice (trvalý pobyt)',
    homeHouse: 'Číslo popisné (trvalý pobyt)',
    homeCity: 'Obec (trvalý pobyt)',
    homeZip: 'PSČ (trvalý pobyt)',
    homeState: 'Stát (trvalý pobyt)',
    copy: 'Zkopírovat adresu trvalého pobytu',
    contactStreet: 'Ulice (kontaktní adresa)',
    email: 'E-mail',
    dataMailbox: 'ID datové schránky',
    delivery: 'Způsob doručení',
    dataBox: 'Do datové schránky',
    employer: 'Současný zaměstnavatel',
    employerFrom: 'Začátek zaměstnání (MM/RRRR)',
    description: 'Popis činnosti',
    addActivity: 'Přidat činnost',
    activityType: 'Druh činnosti',
    other: 'Jiné',
    addAbroad: 'Přidat pobyt v zahraničí',
    modalClose: 'Rozumím',
    abroadState: 'Stát',
    reason: 'Důvod pobytu',
    summary: 'Formulář obsahuje chyby',
    required: 'Zadejte jméno',
    sexRequired: 'Vyberte pohlaví',
    optional: '(nepovinné)',
  },
  en: {
    birthName: 'Birth surname',
    sex: 'Sex',
    male: 'Male',
    birthDate: 'Date of birth',
    birthState: 'Country of birth',
    czechia: 'Czech Republic',
    germany: 'Germany',
    municipality: 'Place of birth',
    district: 'District of birth',
    birthNumber: 'Birth number',
    citizen1: 'Citizenship',
    citizen2: 'Second citizenship',
    stateless: 'Stateless',
    homeStreet: 'Street (permanent address)',
    homeHouse: 'House number (permanent address)',
    homeCity: 'Town (permanent address)',
    homeZip: 'Postcode (permanent address)',
    homeState: 'Country (permanent address)',
    copy: 'Copy the permanent address',
    contactStreet: 'Street (contact address)',
    email: 'E-mail',
    dataMailbox: 'Data mailbox ID',
    delivery: 'Delivery method',
    dataBox: 'data',
    employer: 'Current employer',
    employerFrom: 'Employed since (MM/YYYY)',
    description: 'Description of work',
    addActivity: 'Add an activity',
    activityType: 'Type of activity',
    other: 'Other',
    addAbroad: 'Add a stay abroad',
    modalClose: 'I understand',
    abroadState: 'Country',
    reason: 'Reason for the stay',
    summary: 'There is a problem',
    required: 'Enter your first name',
    sexRequired: 'Choose your sex',
    optional: '(optional)',
  },
} as const;

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test.describe(`request form (${lang})`, () => {
    test('a prefilled person: read-only register data, valid form, finish completes', async ({ page }) => {
      test.setTimeout(60000);
      const finish = await openPrefilledForm(page, lang);
      await expect(page.locator('#first_name')).toHaveAttribute('readonly', '');
      await expect(page.locator('#birth_date')).toHaveValue('15.03.1985');
      await expect(page.locator('#birth_number')).toHaveAttribute('readonly', '');
      await expect(page.locator('#home_street')).toHaveAttribute('readonly', '');
      await expect(page.locator('#citizen_of_1')).toHaveAttribute('readonly', '');
      // Editable fields keep the register's values; the copy button copies the home address.
      await page.locator('#contact_street').fill('');
      await page.getByRole('button', { name: x.copy }).click();
      await expect(page.locator('#contact_street')).toHaveValue('Korunní');
      await expect(finish).toHaveAttribute('data-state', 'valid');
      await checkA11y(page);
      await finish.click();
      // A valid form opens the confirmation dialog (e2e/submit.spec.ts goes on from there).
      await expect(page.getByTestId('confirm-dialog')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(finish).toBeFocused();
      // The draft survives a reload of the tab.
      await page.locator('#employer_current_description').fill('Draft text');
      await page.reload();
      await expect(page.locator('#employer_current_description')).toHaveValue('Draft text', {
        timeout: 15000,
      });
    });

    test('fill without document: every section, the reactions and the rules', async ({ page }) => {
      test.setTimeout(120000);
      const finish = await fillWithoutDocument(page, lang);
      await expect(finish).toHaveAttribute('data-state', 'invalid');

      // Finish with an empty form: alert, error summary with links, focus on it, axe clean.
      await finish.click();
      const summary = page.getByTestId('error-summary');
      await expect(summary).toBeFocused();
      await expect(summary.getByRole('heading', { name: x.summary })).toBeVisible();
      // One message for the event: the FORM_INVALID text is in the summary, in view with its
      // heading; no second alert on top.
      await expect(summary).toHaveAttribute('data-alert-key', 'ALERTS.FORM_INVALID');
      await expect(summary.getByRole('heading', { name: x.summary })).toBeInViewport();
      await expect(page.locator('.alert-list [data-alert-key]')).toHaveCount(0);
      // What was typed in the search came along (editable); the first gap is the sex, named.
      await expect(page.locator('#first_name')).toHaveValue('Nikdo');
      await expect(page.locator('#document_number')).toHaveValue('000000000');
      await expect(summary.getByRole('link').first()).toHaveText(x.sexRequired);
      await page.locator('#first_name').fill('');
      await expect(page.locator('#first_name')).toHaveAttribute('aria-invalid', 'true');
      await checkA11y(page);
      await summary.getByRole('link').first().click();
      await expect(page.locator('#first_name')).toBeFocused();
      await expect(page.locator('#first_name-error')).toHaveText(x.required);

      await page.locator('#first_name').fill('Jana');
      // Last name copies to birth name while the birth name is untouched.
      await page.locator('#last_name').fill('Nováková');
      await expect(page.locator('#birth_name')).toHaveValue('Nováková');
      await page.locator('#sex').selectOption('2');

      // Birth number stays disabled until the birth date is valid; partial date entry.
      await expect(page.locator('#birth_number')).toBeDisabled();
      await page.locator('#birth_date').fill('1.2.1990');
      await page.locator('#birth_date').blur();
      await expect(page.locator('#birth_date')).toHaveValue('01.02.1990');
      await expect(page.locator('#birth_number')).toBeEnabled();

      // Outside CZ: free-text municipality, no district (issue 36); CZ: list + district set.
      await chooseOption(page, 'birth_state', x.germany);
      await expect(page.locator('#birth_district')).toHaveCount(0);
      await page.locator('#birth_municipality').fill('München');
      await chooseOption(page, 'birth_state', x.czechia);
      await expect(page.locator('#birth_municipality')).toHaveValue('');
      await expect(page.locator('#birth_municipality')).toHaveAttribute('role', 'combobox');
      await chooseOption(page, 'birth_municipality', 'brno');
      await expect(page.locator('#birth_municipality')).toHaveValue('Brno');
      await expect(page.locator('#birth_district')).not.toHaveValue('');

      // ## disables the second citizenship; CZ makes the birth number required and checked.
      await chooseOption(page, 'citizen_of_1', x.stateless);
      await expect(page.locator('#citizen_of_2')).toBeDisabled();
      await chooseOption(page, 'citizen_of_1', x.czechia);
      await expect(page.locator('#citizen_of_2')).toBeEnabled();
      await page.locator('#birth_number').fill('900301/1234');
      await expect(page.locator('#birth_number')).toHaveAttribute('aria-invalid', 'true');
      await page.locator('#birth_number').fill('905201/1234');
      await expect(page.locator('#birth_number')).not.toHaveAttribute('aria-invalid', 'true');

      await page.locator('#document_type').selectOption('OP_CR');
      await page.locator('#document_number').fill('987654321');
      await page.locator('#home_street').fill('Dlouhá');
      await page.locator('#home_house_num').fill('12');
      await page.locator('#home_city').fill('Brno');
      await page.locator('#home_zip').fill('602 00');
      await chooseOption(page, 'home_state', x.czechia);
      await page.getByRole('button', { name: x.copy }).click();
      await expect(page.locator('#contact_street')).toHaveValue('Dlouhá');
      await expect(page.locator('#contact_state')).toHaveValue(x.czechia);

      // Telephone rule; DATOVKOU offered only with a known data mailbox, then it is required.
      await page.locator('#telephone').fill('12345');
      await expect(page.locator('#telephone')).toHaveAttribute('aria-invalid', 'true');
      await page.locator('#telephone').fill('601 123 456');
      await page.locator('#email').fill('jana@example.cz');
      await expect(page.locator('#delivery_type option[value="DATOVKOU"]')).toHaveCount(0);
      await page.locator('#data_mailbox').fill('abc1234');
      await expect(page.locator('#delivery_type option[value="DATOVKOU"]')).toHaveCount(1);
      await page.locator('#delivery_type').selectOption('DATOVKOU');

      // Employer start that leaves months uncovered: the TIME_NOT_COVERED alert and a clock.
      await page.locator('#employer_current_name').fill('Letiště Brno');
      const now = new Date();
      const recent = `${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear()}`;
      await page.locator('#employer_current_from').fill(recent);
      await page.locator('#employer_current_description').fill('Odbavení');
      await expect(page.locator('.alert--warning[data-alert-key="ALERTS.TIME_NOT_COVERED"]')).toBeVisible();
      await expect(page.getByTestId('coverage')).toContainText('/');
      await expect(finish).toHaveAttribute('data-state', 'uncovered');

      // A past activity: type Other disables field2; rows can be removed.
      await page.getByRole('button', { name: x.addActivity }).click();
      await expect(page.locator('#past_activities-0-from')).toBeFocused();
      await page.locator('#past_activities-0-type').selectOption('3');
      await expect(page.locator('#past_activities-0-field2')).toBeDisabled();
      await page.getByTestId('activity-row').getByRole('button').click();
      await expect(page.getByTestId('activity-row')).toHaveCount(0);
      await page.locator('#employer_current_from').fill(`01/${now.getFullYear() - 6}`);
      await expect(page.getByTestId('coverage')).not.toContainText('(');

      // The first stay abroad opens the explanatory modal: focus inside, axe, Escape closes.
      await page.getByRole('button', { name: x.addAbroad }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: x.modalClose })).toBeFocused();
      await checkA11y(page);
      await page.keyboard.press('Tab');
      await expect(dialog.getByRole('button', { name: x.modalClose })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page.locator('#abroad_stay-0-state')).toBeFocused();
      await chooseOption(page, 'abroad_stay-0-state', x.germany);
      await page.locator('#abroad_stay-0-reason').fill('Studium');
      // Up to 6 rows: the add button hides at 6, and no second modal.
      for (let i = 1; i < 6; i++) await page.getByRole('button', { name: x.addAbroad }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByRole('button', { name: x.addAbroad })).toHaveCount(0);
      for (let i = 5; i >= 1; i--) await page.getByTestId('abroad-row').nth(i).getByRole('button').click();

      await expect(finish).toHaveAttribute('data-state', 'valid');
      await finish.click();
      await expect(page.getByTestId('confirm-dialog')).toBeVisible();
      await expect(page.getByTestId('error-summary')).toHaveCount(0);
    });

    test('labels mark optional fields and errors follow the message keys', async ({ page }) => {
      await fillWithoutDocument(page, lang);
      await expect(page.locator('label[for="home_org_num"]')).toContainText(x.optional);
      // Usable at 320 px: nothing wider than the screen.
      await page.setViewportSize({ width: 320, height: 700 });
      await page.getByTestId('add-activity').click();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(320);
      await page.getByTestId('activity-row').getByRole('button').click();
      await expect(page.locator('label[for="first_name"]')).not.toContainText(x.optional);
      const first = page.locator('#first_name');
      await first.fill('J');
      await first.fill('');
      await expect(first).toHaveAttribute('aria-invalid', 'true');
      const describedBy = await first.getAttribute('aria-describedby');
      await expect(page.locator(`#${describedBy}`)).toHaveText(x.required);
      // Not changed yet: no message.
      await expect(page.locator('#last_name')).not.toHaveAttribute('aria-invalid', 'true');
      // The maximum length of spec section 5 is the box's own limit.
      await expect(first).toHaveAttribute('maxlength', '50');
      await expect(page.locator('#abroad_stay-0-reason')).toHaveCount(0);
    });
  });
}

test('keyboard only: a person with a gap adds the missing activity and finishes', async ({ page }) => {
  test.setTimeout(120000);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/form');
  // The document types come from the server: ArrowDown picks the first only once they are offered.
  await expect(
    page.getByLabel('Typ dokladu').locator('option', { hasText: 'Občanský průkaz ČR' }),
  ).toBeAttached();
  await page.getByLabel('Jméno', { exact: true }).focus();
  await page.keyboard.type('Tomáš');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Král');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.type('567890123');
  await page.keyboard.press('Enter');
  const finish = await passEarlyRefusal(page);
  await expect(page.getByTestId('coverage')).toContainText('12/2023', { timeout: 20000 });
  await expect(finish).toHaveAttribute('data-state', 'invalid');

  // From the heading of step 2, Tab to a button and press Enter.
  const tabTo = async (testId: string) => {
    const target = page.getByTestId(testId);
    for (let i = 0; i < 150; i++) {
      if (await target.evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    await expect(target).toBeFocused();
    await page.keyboard.press('Enter');
  };
  // No contact address in the register: copy the permanent one.
  await tabTo('copy-home');
  await expect(page.locator('#contact_street')).toHaveValue('Jugoslávských partyzánů');
  await expect(finish).toHaveAttribute('data-state', 'uncovered');
  await tabTo('add-activity');
  const row = page.getByTestId('activity-row').last();
  await expect(row.locator('input').first()).toBeFocused();
  await page.keyboard.type('07/2021');
  await page.keyboard.press('Tab');
  await page.keyboard.type('12/2023');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Aerolinie');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Pilot');
  await expect(finish).toHaveAttribute('data-state', 'valid');
  // Enter in a text box finishes the form.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
});
