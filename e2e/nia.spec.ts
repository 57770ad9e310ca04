import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import {
  checkA11y,
  expect,
  type Lang,
  passEarlyRefusal,
  SEARCH_TEXT,
  test,
  tickDeclarations,
} from './fixtures.js';

/**
 * Sign-in through NIA, end to end (docs/form.md "Sign-in through NIA (web)", docs/nia.md): the
 * home page's sign-in choice, the server's local NIA-like provider (/nia-test, its page to pick a
 * test identity), the callback back to the form with eid=nia, the form's states, and a submit
 * whose confirmation goes by e-mail (the .eml in the server's outbox) instead of a PDF download.
 *
 * The whole flow runs on http://localhost:<port>: the server's public URL (ROS_PUBLIC_URL, by
 * default http://localhost:<PORT>) is where NIA sends the browser back to, and the sign-in
 * cookie must come back from the same host.
 */

const PORT = Number(process.env.ROS_E2E_PORT ?? 4180);
const ORIGIN = `http://localhost:${PORT}`;
// The data folder playwright.config.ts gives the server: the e-mails land in its outbox.
const OUTBOX = resolve(import.meta.dirname, `.out/data-${PORT}/outbox`);

const TEXT = {
  cs: {
    heading: 'Jste přihlášeni přes identitu občana',
    direct: /nic netisknete ani nepodepisujete/,
    incomplete: 'Přihlášení neposkytlo všechny údaje',
    failed: /Přihlášení přes identitu občana se nepodařilo/,
    expired: /přihlášení přes identitu občana vypršelo/i,
    notFound: 'Duplikát nelze vydat',
    fillAnyway: 'Přesto vyplnit žádost o duplikát',
    retryAlert: /zadejte prosím své rodné číslo/i,
    success: 'Žádost byla odeslána',
    emailSent: 'jsme poslali e-mailem na adresu stepan.dvorak@example.cz',
    datovkou: 'Do datové schránky',
    introIncomplete: 'Z přihlášení jsme převzali jméno a příjmení',
    birthDateFixed: 'datum narození',
    missingBirthDate: 'Přihlášení nám neposkytlo datum narození.',
    signInAgain: 'Přihlásit se znovu',
    continueWithout: 'Pokračovat bez přihlášení',
  },
  en: {
    heading: 'You are signed in with your citizen identity',
    direct: /there is nothing to print or sign/,
    incomplete: 'The sign-in did not provide all details',
    failed: /Signing in with your citizen identity did not succeed/,
    expired: /sign-in has expired or has already been used/,
    notFound: 'No duplicate can be issued',
    fillAnyway: 'Fill in the duplicate request anyway',
    retryAlert: /Please enter your birth number/,
    success: 'Your request has been sent',
    emailSent: 'by e-mail to stepan.dvorak@example.cz',
    datovkou: 'To a data mailbox',
    introIncomplete: 'From your sign-in we took your first name and last name',
    birthDateFixed: 'date of birth',
    missingBirthDate: 'Your sign-in did not give us your date of birth.',
    signInAgain: 'Sign in again',
    continueWithout: 'Continue without signing in',
  },
} as const;

const homePath = (lang: Lang, duplicate: boolean) =>
  `${duplicate ? (lang === 'en' ? '/duplicate' : '/duplikat') : '/'}${lang === 'en' ? '?lang=en' : ''}`;
const formPath = (lang: Lang, duplicate: boolean) =>
  duplicate ? (lang === 'en' ? '/duplicate/form' : '/duplikat/form') : '/form';
const from = (lang: Lang, duplicate: boolean) =>
  `${duplicate ? 'duplicate' : 'form'}${lang === 'en' ? '-en' : ''}`;

/** From the home page to the provider's page through the sign-in choice (use_eid YES, the default). */
async function startSignIn(page: Page, lang: Lang, duplicate: boolean): Promise<void> {
  // No cookies are cleared: the server asks the provider for a fresh sign-in every time (prompt=login).
  await page.goto(`${ORIGIN}${homePath(lang, duplicate)}`);
  const choice = page.getByTestId('choice-eid');
  const target = `/api/ros/sso-redirect?from=${from(lang, duplicate)}`;
  await expect(choice).toHaveAttribute('href', target);
  await choice.click();
  await expect(page.getByRole('heading', { level: 1, name: /Test NIA sign-in/ })).toBeVisible();
}

/** Picks a test identity on the provider's page (its radio's name starts with the person's name) and signs in. */
async function signIn(page: Page, lang: Lang, who: RegExp, duplicate = false): Promise<void> {
  await startSignIn(page, lang, duplicate);
  await page.getByRole('radio', { name: who }).check();
  await page.getByRole('button', { name: /Sign in/ }).click();
  const expected = `${formPath(lang, duplicate)}?eid=nia${lang === 'en' ? '&lang=en' : ''}`;
  await expect(page).toHaveURL(`${ORIGIN}${expected}`);
  // A register person with a certificate valid for long is told so first (issue 36).
  if (!duplicate) await passEarlyRefusal(page);
}

/** The .eml the server wrote for a reference (the mail goes out after the answer). */
async function outboxMail(reference: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const files = await readdir(OUTBOX).catch(() => [] as string[]);
        const file = files.find((f) => f.startsWith(reference) && f.endsWith('.eml'));
        text = file ? await readFile(resolve(OUTBOX, file), 'utf8') : '';
        return text !== '';
      },
      { timeout: 30000 },
    )
    .toBe(true);
  return text;
}

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test(`sign in as a register person, prefilled form, submit: e-mail, no download (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120000);
    if (lang === 'cs') await page.setViewportSize({ width: 360, height: 800 });
    await signIn(page, lang, /^Štěpán Dvořák/);

    const heading = page.getByRole('heading', { name: x.heading });
    await expect(heading).toBeFocused();
    await expect(page.getByText(x.direct)).toBeVisible();
    const finish = page.getByTestId('finish');
    await expect(finish).toBeVisible();
    // No search step; the NIA identity and the register's data are read-only.
    await expect(page.getByTestId('search-submit')).toHaveCount(0);
    await expect(page.locator('#first_name')).toHaveValue('Štěpán');
    for (const id of ['first_name', 'last_name', 'birth_date', 'home_city', 'birth_number']) {
      await expect(page.locator(`#${id}`)).toHaveAttribute('readonly', '');
    }
    await expect(page.locator('#birth_date')).toHaveValue('15.03.1985');
    // Keyboard: from the focused heading, Tab goes into the form.
    await page.keyboard.press('Tab');
    await expect(page.locator('#first_name')).toBeFocused();
    await expect(finish).toHaveAttribute('data-state', 'valid');
    await test.step('axe form', () => checkA11y(page));

    await finish.click();
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toBeVisible();
    // NIA identified the applicant: nothing is signed on paper.
    await expect(
      dialog.locator('.choice-item', { has: page.getByTestId('confirm-signature') }),
    ).toContainText('(NIA)');
    await tickDeclarations(page);
    let downloaded = false;
    page.on('download', () => {
      downloaded = true;
    });
    await page.getByTestId('confirm-submit').click();
    const success = page.getByTestId('submit-success');
    await expect(success).toBeVisible({ timeout: 60000 });
    await expect(success).toHaveAttribute('data-variant', 'email');
    await expect(page.getByRole('heading', { name: x.success })).toBeFocused();
    await expect(page.getByTestId('submit-email-note')).toContainText(x.emailSent);
    // A copy to keep is offered here too, not only by e-mail (issue 28); nothing downloads by itself.
    await expect(page.getByTestId('pdf-link')).toHaveAttribute(
      'href',
      /^\/api\/ros\/pdf\/[A-Za-z0-9_-]{24}$/,
    );
    const reference = (await page.getByTestId('submit-reference').textContent())?.match(
      /ROS-\d{4}-\d{6}/,
    )?.[0];
    expect(reference).toBeTruthy();
    await test.step('axe success', () => checkA11y(page));

    // The confirmation went to the entered address with the request's PDF.
    const mail = await outboxMail(reference as string);
    expect(mail).toMatch(/^To: .*stepan\.dvorak@example\.cz/m);
    expect(mail).toContain(`${reference}.pdf`);
    expect(mail).toMatch(/Content-Type: application\/pdf/i);
    expect(downloaded).toBe(false);

    // A shared computer (issue 28): the sent request's page, reloaded, shows "already sent" and
    // none of the applicant's details.
    await page.reload();
    await expect(page.getByTestId('already-sent')).toBeVisible();
    await expect(page.getByText(/stepan\.dvorak@example\.cz/)).toHaveCount(0);
    await expect(page.getByText(reference as string)).toHaveCount(0);

    // One sign-in, one request: the session has ended, a new sign-in form says so and offers the plain form.
    // (From another page: a navigation to the same address is a reload, and keeps the entry's mark.)
    await page.goto(`${ORIGIN}${homePath(lang, false)}`);
    await page.goto(`${ORIGIN}/form?eid=nia${lang === 'en' ? '&lang=en' : ''}`);
    await expect(page.getByText(x.expired)).toBeVisible();
    await expect(page.getByTestId('finish')).toBeVisible();
    await expect(page.locator('#first_name')).toHaveValue('');
  });

  test(`identities outside the register: identity only, and incomplete (${lang})`, async ({ page }) => {
    test.setTimeout(90000);
    await signIn(page, lang, /^Jana Nováková/);
    await expect(page.getByRole('heading', { name: x.heading })).toBeFocused();
    await expect(page.locator('#last_name')).toHaveValue('Nováková');
    await expect(page.locator('#last_name')).toHaveAttribute('readonly', '');
    await expect(page.locator('#birth_date')).toHaveValue('20.01.1995');
    await expect(page.locator('#birth_name')).toHaveValue('Nováková');
    await expect(page.locator('#birth_name')).not.toHaveAttribute('readonly', '');
    await expect(page.locator('#home_city')).toHaveValue('');
    // No prefill: the data mailbox is there to type.
    await expect(page.locator('#data_mailbox')).toBeEditable();
    await test.step('axe identity only', () => checkA11y(page));

    await signIn(page, lang, /^Petr Neúplný/);
    const card = page.getByTestId('sso-incomplete');
    await expect(card).toContainText(x.incomplete);
    // One explanation (issue 28): the intro names what came from the sign-in, the card what did not.
    const intro = page.locator('#step2-title + p');
    await expect(intro).toContainText(x.introIncomplete);
    await expect(intro).not.toContainText(x.birthDateFixed);
    await expect(card).toContainText(x.missingBirthDate);
    await expect(page.getByText(x.direct)).toHaveCount(0);
    await expect(page.locator('#first_name')).toHaveAttribute('readonly', '');
    // The birth date NIA did not release is the user's to fill in.
    await expect(page.locator('#birth_date')).toBeEditable();
    await page.locator('#birth_date').fill('01.02.1980');
    await page.locator('#birth_date').blur();
    await expect(page.locator('#birth_date')).toHaveValue('01.02.1980');
    await test.step('axe incomplete', () => checkA11y(page));
  });

  test(`a known data mailbox is read-only and offers DATOVKOU (${lang})`, async ({ page }) => {
    await signIn(page, lang, /^Martin Horák/);
    await expect(page.getByTestId('finish')).toBeVisible();
    await expect(page.locator('#data_mailbox')).toHaveValue('h7k2m9p');
    await expect(page.locator('#data_mailbox')).toHaveAttribute('readonly', '');
    await expect(page.locator('#delivery_type option', { hasText: x.datovkou })).toHaveCount(1);
  });

  test(`cancelled sign-in: back on the search step with an alert (${lang})`, async ({ page }) => {
    await startSignIn(page, lang, false);
    await page.getByRole('button', { name: /Cancel/ }).click();
    await expect(page).toHaveURL(`${ORIGIN}/form?sso=failed${lang === 'en' ? '&lang=en' : ''}`);
    await expect(page.getByText(x.failed)).toBeVisible();
    await expect(page.getByRole('button', { name: SEARCH_TEXT[lang].search })).toBeVisible();
    await test.step('axe sso failed', () => checkA11y(page));
    // Both ways on (issue 28): signing in again, or going on without it.
    const card = page.getByTestId('sso-failed');
    await expect(card.getByRole('link', { name: x.signInAgain })).toHaveAttribute(
      'href',
      `/api/ros/sso-redirect?from=${from(lang, false)}`,
    );
    await card.getByRole('button', { name: x.continueWithout }).click();
    await expect(card).toHaveCount(0);
    await expect(page.getByLabel(SEARCH_TEXT[lang].first, { exact: true })).toBeFocused();
  });

  test(`duplicate mode: retry without a certificate, not found, prefilled with one (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120000);
    // In the register, no certificate: the birth-number retry with the details locked.
    await signIn(page, lang, /^Karel Procházka/, true);
    await expect(page.getByText(x.retryAlert)).toBeVisible();
    await expect(page.locator('#first_name')).toHaveValue('Karel');
    await expect(page.locator('#first_name')).toHaveAttribute('readonly', '');
    await expect(page.getByLabel(SEARCH_TEXT[lang].birthNumber)).toBeEditable();
    await test.step('axe retry', () => checkA11y(page));

    // Not in the register: no duplicate; the keyboard reaches both ways on.
    await signIn(page, lang, /^Jana Nováková/, true);
    const notFound = page.getByRole('heading', { name: x.notFound });
    await expect(notFound).toBeFocused();
    await expect(page.getByTestId('nia-new-request')).toHaveAttribute(
      'href',
      `/form?eid=nia${lang === 'en' ? '&lang=en' : ''}`,
    );
    await test.step('axe not found', () => checkA11y(page));
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('nia-new-request')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: x.fillAnyway })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: x.heading })).toBeFocused();
    await expect(page.locator('#last_name')).toHaveValue('Nováková');

    // With a certificate: the duplicate form, prefilled, the identity read-only.
    await signIn(page, lang, /^Štěpán Dvořák/, true);
    await expect(page.getByRole('heading', { name: x.heading })).toBeFocused();
    await expect(page.locator('#first_name')).toHaveAttribute('readonly', '');
    await expect(page.locator('#birth_number')).toHaveValue('850315/1008');
    await expect(page.locator('#duplicate_type')).toBeVisible();
    await test.step('axe duplicate', () => checkA11y(page));
  });
}
