import type { Page, Route } from '@playwright/test';
import { focusedNode } from './a11y.js';
import {
  expect,
  fillWithoutDocument,
  formUrl,
  type Lang,
  openPrefilledForm,
  PEOPLE,
  SEARCH_TEXT,
  submitSearch,
  test,
  tickDeclarations,
} from './fixtures.js';
import { i18nText } from './i18nText.js';
import { clearSpoken, settled, spoken, startScreenReader } from './screenReader.js';

/**
 * What a screen reader says (issue 35): @guidepup/virtual-screen-reader in the live page
 * (screenReader.ts) hears each message once, with its words, where it appears; focus stays on
 * the control the message answers (or moves to a named message that is read on focus).
 */

// The reader is put into the page as an inline script, which the portal's CSP refuses.
test.use({ bypassCSP: true });

/**
 * Waits until `words` have been said at least once, then until the page is settled (screenReader.ts
 * `settled`: nothing more said between two words of the test's own, said after the page's requests
 * and the next frames), then gives how many times: a second announcement a moment later counts.
 */
async function heard(page: Page, words: string): Promise<number> {
  await expect
    .poll(async () => (await spoken(page)).filter((p) => p.includes(words)).length)
    .toBeGreaterThan(0);
  return (await settled(page)).filter((p) => p.includes(words)).length;
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

  test(`duplicate mode: "nobody found", "enter your birth number" and "not found by the birth number either" are said once where they are (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 320, height: 480 });
    await page.goto(formUrl(lang, true));
    await startScreenReader(page);
    await submitSearch(page, lang, PEOPLE.nobody);
    expect(await heard(page, say('FORM.DUPLICATE_NOT_FOUND.DESCRIPTION'))).toBe(1);
    await underTheButton(page);

    // Found without a certificate: "enter your birth number" is said once, with its words, from
    // the region right above the new box (in the page before it), in view with the box at 320 px,
    // focus in the box; not at the top of the page.
    await page.goto(formUrl(lang, true));
    await startScreenReader(page);
    const region = page.locator('.search__grid > [role="alert"]');
    await expect(region).toHaveCount(1);
    await expect(region).toBeEmpty();
    await submitSearch(page, lang, PEOPLE.prochazka);
    const bn = page.locator('#birth_number');
    await expect(bn).toBeFocused({ timeout: 20_000 });
    const retryWords = say('FORM.DUPLICATE_RETRY.DESCRIPTION');
    expect(await heard(page, retryWords)).toBe(1);
    const retryNotice = region.getByTestId('retry-notice');
    await expect(retryNotice).toHaveText(retryWords);
    await expect(retryNotice).toBeInViewport();
    await expect(bn).toBeInViewport();
    const [r, b] = [await retryNotice.boundingBox(), await bn.boundingBox()];
    expect(r && b && r.y + r.height <= b.y).toBe(true);
    await expect(page.locator('.alert-list [data-alert-key]')).toHaveCount(0);
    expect((await focusedNode(page))?.role).toBe('textbox');

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
    const said = (await settled(page)).join(' | ');
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
    const list = (await settled(page)).filter(
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

  test(`the other answers are said once: the sign-in's cards, the validity form, a list that fails (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const failed = (route: Route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'x' } }),
      });
    const q = lang === 'en' ? '&lang=en' : '';

    // Back from a cancelled sign-in: the card has focus when the page shows (the page waits for
    // its metadata, held until the reader runs), named by its words, said once.
    let releaseMeta = () => {};
    const heldMeta = new Promise<void>((r) => {
      releaseMeta = r;
    });
    await page.route('**/api/ros/metadata', async (route) => {
      await heldMeta;
      await route.continue();
    });
    await page.goto(`/form?sso=failed${q}`, { waitUntil: 'domcontentloaded' });
    await startScreenReader(page);
    releaseMeta();
    const ssoFailed = page.getByTestId('sso-failed');
    await expect(ssoFailed).toBeFocused({ timeout: 20_000 });
    // Its words say whether signing in again is offered (only while the sign-in is switched on).
    const off = (await ssoFailed.getByTestId('sso-sign-in-again').count()) === 0;
    const ssoWords = say(off ? 'ALERTS.SSO_FAILED_OFF' : 'ALERTS.SSO_FAILED');
    expect(await focusedNode(page)).toMatchObject({ name: ssoWords });
    expect(await heard(page, ssoWords)).toBe(1);
    await page.unroute('**/api/ros/metadata');

    // The sign-in's details cannot be loaded: focus on the card, named by its words, said once.
    // (The answer is held until the reader runs.)
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/ros/sso-session', async (route) => {
      await held;
      await failed(route);
    });
    await page.goto(`/form?eid=nia${q}`);
    await startScreenReader(page);
    release();
    const sessionError = page.getByTestId('nia-session-error');
    await expect(sessionError).toBeFocused({ timeout: 20_000 });
    expect(await focusedNode(page)).toMatchObject({ name: say('FORM.NIA.SESSION_ERROR') });
    expect(await heard(page, say('FORM.NIA.SESSION_ERROR'))).toBe(1);

    // The validity form refuses what was typed: focus on the message above the boxes, named by its
    // words, said once, from the button and from Enter in a box alike.
    await page.goto(lang === 'en' ? '/check?lang=en' : '/check');
    await startScreenReader(page);
    await page.locator('#check-number').fill('990000001');
    await page.locator('#check-date').fill('31.02.2027');
    await page.getByTestId('check-submit').click();
    const checkError = page.getByTestId('check-form-error');
    await expect(checkError).toBeFocused();
    expect(await focusedNode(page)).toMatchObject({ name: say('CHECK.FORM.ERROR') });
    expect(await heard(page, say('CHECK.FORM.ERROR'))).toBe(1);
    // (Back in the number box, its description is the message: that is not counted.)
    await page.locator('#check-number').focus();
    await settled(page);
    await clearSpoken(page);
    await page.keyboard.press('Enter');
    await expect(checkError).toBeFocused();
    expect(await heard(page, say('CHECK.FORM.ERROR'))).toBe(1);

    // Step 2's lists fail: said once, from the region that was there while they loaded; focus
    // stays on the step's heading and comes back to it with "Try again".
    await page.route('**/api/ros/countries*', failed);
    await page.goto(formUrl(lang));
    await startScreenReader(page);
    await submitSearch(page, lang, PEOPLE.nobody);
    await page.getByRole('button', { name: SEARCH_TEXT[lang].without }).click({ timeout: 20_000 });
    const listsError = page.getByTestId('lists-error');
    await expect(listsError).toBeVisible({ timeout: 20_000 });
    expect(await heard(page, say('FORM.LISTS_ERROR'))).toBe(1);
    await page.unroute('**/api/ros/countries*');
    const retry = listsError.getByRole('button', { name: say('FORM.RETRY') });
    await retry.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('finish')).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('#step2-title')).toBeFocused();
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
    expect((await settled(page)).join(' ')).not.toContain(say('FORM.NOTICE.SUBMIT_ERROR_NEXT'));
  });
}
