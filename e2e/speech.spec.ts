import type { Page } from '@playwright/test';
import { focusedNode } from './a11y.js';
import {
  expect,
  fillWithoutDocument,
  formUrl,
  type Lang,
  openPrefilledForm,
  PEOPLE,
  submitSearch,
  test,
  tickDeclarations,
} from './fixtures.js';
import { i18nText } from './i18nText.js';
import { clearSpoken, spoken, startScreenReader } from './screenReader.js';

/**
 * What a screen reader says (issue 35): @guidepup/virtual-screen-reader in the live page
 * (screenReader.ts) hears each message once, with its words, where it appears; focus stays on
 * the control the message answers (or moves to a named message that is read on focus).
 */

// The reader is put into the page as an inline script, which the portal's CSP refuses.
test.use({ bypassCSP: true });

/** Waits until `words` have been said at least once, then gives how many times. */
async function heard(page: Page, words: string): Promise<number> {
  await expect
    .poll(async () => (await spoken(page)).filter((p) => p.includes(words)).length)
    .toBeGreaterThan(0);
  return (await spoken(page)).filter((p) => p.includes(words)).length;
}

/** The notice's region comes after the button in the page and the notice is in view with it. */
async function underTheButton(page: Page): Promise<void> {
  const button = page.getByTestId('search-submit');
  const notice = page.getByTestId('search-notice');
  await expect(notice).toBeInViewport();
  await expect(button).toBeFocused();
  const [b, n] = [await button.boundingBox(), await notice.boundingBox()];
  expect(n && b && n.y > b.y).toBe(true);
}

for (const lang of ['cs', 'en'] as const) {
  const say = (key: string) => i18nText(lang, key);

  test(`the search step's messages are said once, under the button (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    // 400 % zoom of a 1280 px window.
    await page.setViewportSize({ width: 320, height: 480 });
    await page.goto(formUrl(lang));
    await startScreenReader(page);
    await submitSearch(page, lang, PEOPLE.nobody);
    expect(await heard(page, say('ALERTS.DOCUMENT_INVALID'))).toBe(1);
    await underTheButton(page);

    // The server's other answers, each said once with its words.
    const answers: Array<[number, string, string]> = [
      [500, 'INTERNAL', 'SEARCH.ERROR'],
      [429, 'RATE_LIMITED', 'SEARCH.RATE_LIMITED'],
      [400, 'BOT_CHECK_FAILED', 'SEARCH.BOT_CHECK_FAILED'],
    ];
    for (const [status, code, key] of answers) {
      await page.route('**/api/ros/search', (route) =>
        route.fulfill({
          status,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code, message: code } }),
        }),
      );
      await clearSpoken(page);
      await page.getByTestId('search-submit').click();
      expect(await heard(page, say(key)), key).toBe(1);
      await underTheButton(page);
      await page.unroute('**/api/ros/search');
    }
    // Closed with the keyboard: focus goes back to the button, not to the page.
    await page.getByTestId('search-notice').getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('search-notice')).toHaveCount(0);
    await expect(page.getByTestId('search-submit')).toBeFocused();
  });

  test(`duplicate mode: "nobody found" and "not found by the birth number either" are said once, under their button (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 320, height: 480 });
    await page.goto(formUrl(lang, true));
    await startScreenReader(page);
    await submitSearch(page, lang, PEOPLE.nobody);
    expect(await heard(page, say('FORM.DUPLICATE_NOT_FOUND.DESCRIPTION'))).toBe(1);
    await underTheButton(page);

    await page.goto(formUrl(lang, true));
    await startScreenReader(page);
    await submitSearch(page, lang, PEOPLE.prochazka);
    const bn = page.locator('#birth_number');
    await expect(bn).toBeFocused({ timeout: 20_000 });
    await bn.fill('800101/1234');
    await clearSpoken(page);
    await page.getByTestId('search-submit').click();
    expect(await heard(page, say('FORM.DUPLICATE_RETRY.FAILED'))).toBe(1);
    await underTheButton(page);
  });

  test(`the status page's wrong code: focus on the message named by its words, said once, the form not read again (${lang})`, async ({
    page,
  }) => {
    await page.goto(lang === 'en' ? '/request-status?lang=en' : '/stav-zadosti');
    await startScreenReader(page);
    await page.locator('#status-reference').fill('ROS-2026-999999');
    await page.locator('#status-code').fill('ABCD-EFGH-JKMN');
    const field = await page.locator('#status-reference').elementHandle();
    await clearSpoken(page);
    await page.locator('#status-code').press('Enter');
    const words = say('STATUS.PROBLEM.NOT_FOUND');
    await expect(page.getByTestId('status-not-found')).toBeFocused();
    expect(await focusedNode(page)).toMatchObject({ name: words });
    expect(await heard(page, words)).toBe(1);
    // The form stayed (the same box), and its labels were not read out again.
    expect(await field?.evaluate((el) => el.isConnected)).toBe(true);
    const said = (await spoken(page)).join(' | ');
    expect(said).not.toContain(say('STATUS.FORM.REFERENCE'));
    expect(said).not.toContain(say('STATUS.FORM.CODE'));
  });

  test(`the error summary is said once per finish, not at each keystroke; the activities notice once (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const finish = await fillWithoutDocument(page, lang as Lang);
    await startScreenReader(page);
    await finish.click();
    const summary = page.getByTestId('error-summary');
    await expect(summary).toBeFocused();
    const heading = say('FORM.SUMMARY.HEADING');
    expect(await heard(page, heading)).toBe(1);
    // Fixing fields changes the summary's list: nothing more is said of it.
    await page.locator('#email').fill('someone@example.cz');
    await page.locator('#telephone').fill('601123456');
    await page.locator('#email').focus();
    await expect(summary).toBeVisible();
    const list = (await spoken(page)).filter(
      (p) => p.includes(heading) || p.includes(say('ALERTS.FORM_INVALID')),
    );
    expect(list).toHaveLength(1);
    // A second finish says it again, once.
    await clearSpoken(page);
    await finish.click();
    expect(await heard(page, heading)).toBe(1);

    // An employer start that leaves months uncovered: the notice under the box, said once.
    const now = new Date();
    await clearSpoken(page);
    await page
      .locator('#employer_current_from')
      .fill(`${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear()}`);
    await page.locator('#employer_current_description').focus();
    expect(await heard(page, say('ALERTS.TIME_NOT_COVERED'))).toBe(1);
    await expect(page.locator('#employer_current_description')).toBeFocused();
  });

  test(`a send the bot check refuses says so, once, in its words (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    const finish = await openPrefilledForm(page, lang);
    await page.route('**/api/ros', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 403,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'BOT_CHECK_FAILED', message: 'refused' } }),
          })
        : route.continue(),
    );
    await finish.click();
    await tickDeclarations(page);
    await startScreenReader(page);
    await page.getByTestId('confirm-submit').click();
    const notice = page.getByTestId('form-notice');
    await expect(notice).toBeFocused();
    const words = say('ALERTS.SUBMIT_BOT_CHECK_FAILED');
    expect(await heard(page, words)).toBe(1);
    // Not the connection problem's words.
    expect((await spoken(page)).join(' ')).not.toContain(say('FORM.NOTICE.SUBMIT_ERROR_NEXT'));
  });
}
