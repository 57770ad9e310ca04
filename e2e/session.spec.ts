import type { Page } from '@playwright/test';
import { axByRole, focusedNode, liveRegions, startOwnServer } from './a11y.js';
import { checkA11y, expect, type Lang, passEarlyRefusal, test, tickDeclarations } from './fixtures.js';

/**
 * Nobody's NIA sign-in runs out unseen (WCAG 2.2.1, issue 27, docs/nia.md "The session's end"),
 * on a server of this spec's own with a 1-minute session (ROS_SESSION_MINUTES=1: the warning
 * comes halfway, 30 s before the end; a shorter one left too little time on a busy machine): the announced warning and More time, the end while filling
 * in, and a send after the end, which asks the person (sign in again with the draft kept, or
 * paper) instead of quietly making a paper request.
 */

const MAIN = Number(process.env.ROS_E2E_PORT ?? 4180);
const PORT = MAIN + 1000;
// The sends after the end run on the main server (30-minute sessions: no warning in the way).
const MAIN_ORIGIN = `http://localhost:${MAIN}`;
let origin = '';
let stop: () => Promise<void> = async () => {};

// One server for the file: its tests run in one worker, one after another.
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(150_000);
  ({ origin, stop } = await startOwnServer(PORT, {
    ROS_SESSION_MINUTES: '1',
    ROS_SESSION_MAX_MINUTES: '5',
  }));
});
test.afterAll(async () => stop());

const TEXT = {
  cs: {
    warn: 'Přihlášení brzy skončí',
    more: 'Prodloužit přihlášení',
    extended: /Přihlášení je prodloužené do \d\d:\d\d/,
    ended: 'Přihlášení skončilo',
    signInAgain: 'Přihlásit se znovu',
    paper: 'Pokračovat bez přihlášení',
    paperNote: /Pokračujete bez přihlášení/,
    direct: /nic netisknete ani nepodepisujete/,
    success: 'Žádost byla odeslána',
  },
  en: {
    warn: 'Your sign-in will end soon',
    more: 'More time',
    extended: /Your sign-in has been extended until \d\d:\d\d/,
    ended: 'Your sign-in has ended',
    signInAgain: 'Sign in again',
    paper: 'Continue without signing in',
    paperNote: /You continue without signing in/,
    direct: /there is nothing to print or sign/,
    success: 'Your request has been sent',
  },
} as const;

async function signIn(page: Page, lang: Lang, at = origin): Promise<void> {
  await page.goto(`${at}/api/ros/sso-redirect?from=${lang === 'en' ? 'form-en' : 'form'}`);
  await page.getByRole('radio', { name: /^Štěpán Dvořák/ }).check();
  await page.getByRole('button', { name: /Sign in/ }).click();
  await expect(page).toHaveURL(`${at}/form?eid=nia${lang === 'en' ? '&lang=en' : ''}`);
  // Step 2 shows its sections one per task: the finish bar comes with the last; Štěpán Dvořák's
  // certificate is valid for long, so the told-early notice comes first (issue 36).
  await passEarlyRefusal(page);
}

/** Seconds the server still gives the browser's session. */
async function secondsLeft(page: Page): Promise<number> {
  const r = await page.request.get(`${origin}/api/ros/sso-session`);
  return r.ok() ? ((await r.json()) as { expires_in: number }).expires_in : 0;
}

test('the warning is announced before the end; More time keeps the form; the end is said (en)', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const x = TEXT.en;
  await signIn(page, 'en');
  const email = page.locator('#email');
  await email.fill('more.time@example.cz');
  await email.focus();

  // Halfway through the 30 s: an alert dialog, named and described in the accessibility tree,
  // focus on More time (a screen reader reads the dialog's name and text on entering it).
  const dialog = page.getByRole('alertdialog', { name: x.warn });
  await expect(dialog).toBeVisible({ timeout: 45_000 });
  const [ax] = await axByRole(page, 'alertdialog', x.warn);
  expect(ax?.description).toMatch(/ends at \d\d:\d\d\. What you have filled in stays/);
  expect(ax?.props.modal).toBe(true);
  await expect(page.getByRole('button', { name: x.more })).toBeFocused();
  expect(await focusedNode(page)).toMatchObject({ role: 'button', name: x.more });
  await test.step('axe warning', () => checkA11y(page));

  const before = await secondsLeft(page);
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  // Announced politely, focus back in the field, the value kept, the server's end moved.
  await expect
    .poll(async () => (await liveRegions(page)).some((r) => r.live === 'polite' && x.extended.test(r.text)))
    .toBe(true);
  await expect(email).toBeFocused();
  await expect(email).toHaveValue('more.time@example.cz');
  expect(await secondsLeft(page)).toBeGreaterThan(Math.max(before, 40));

  // Closed without more time: when the time is up, the dialog says the sign-in has ended and
  // offers the two ways on; the page's channel has not changed.
  await expect(dialog).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'Close' }).click();
  const ended = page.getByRole('alertdialog', { name: x.ended });
  await expect(ended).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('button', { name: x.signInAgain })).toBeFocused();
  await expect(ended.getByRole('button', { name: x.paper })).toBeVisible();
  // A choice is needed: Escape does not close it.
  await page.keyboard.press('Escape');
  await expect(ended).toBeVisible();
  await expect(page.getByTestId('nia-channel')).toHaveText(x.direct);
  expect(await secondsLeft(page)).toBe(0);
  await test.step('axe ended', () => checkA11y(page));
});

/** From the open form to Send with the session gone at the server (its cookie cleared). */
async function sendAfterTheEnd(page: Page, lang: Lang): Promise<void> {
  await page.context().clearCookies();
  await page.getByTestId('finish').click();
  await tickDeclarations(page);
  await page.getByTestId('confirm-submit').click();
  const dialog = page.getByRole('alertdialog', { name: TEXT[lang].ended });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('submit-success')).toHaveCount(0);
  await expect(page.getByRole('button', { name: TEXT[lang].signInAgain })).toBeFocused();
}

test('a send after the end asks: sign in again keeps the draft (cs)', async ({ page }) => {
  test.setTimeout(120_000);
  const x = TEXT.cs;
  await signIn(page, 'cs', MAIN_ORIGIN);
  await page.locator('#email').fill('znovu@example.cz');
  await sendAfterTheEnd(page, 'cs');
  await page.getByRole('button', { name: x.signInAgain }).click();
  // The sign-in starts from the same form; back on it, the draft is there.
  await page.getByRole('radio', { name: /^Štěpán Dvořák/ }).check();
  await page.getByRole('button', { name: /Sign in/ }).click();
  await expect(page).toHaveURL(`${MAIN_ORIGIN}/form?eid=nia`);
  await expect(page.locator('#email')).toHaveValue('znovu@example.cz');
  await expect(page.getByTestId('nia-channel')).toHaveText(x.direct);
});

test('a send after the end asks: continue on paper is the person’s choice (en)', async ({ page }) => {
  test.setTimeout(120_000);
  const x = TEXT.en;
  await signIn(page, 'en', MAIN_ORIGIN);
  await sendAfterTheEnd(page, 'en');
  await page.getByRole('button', { name: x.paper }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByTestId('finish')).toBeFocused();
  await expect(page.getByTestId('nia-channel')).toHaveText(x.paperNote);
  // Now on paper: the declarations are the paper ones, and Send makes the PDF.
  await page.getByTestId('finish').click();
  await expect(page.getByTestId('confirm-dialog')).not.toContainText('(NIA)');
  await tickDeclarations(page);
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByTestId('confirm-submit').click();
  await expect(page.getByTestId('submit-success')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('submit-success')).not.toHaveAttribute('data-variant', 'email');
  await download;
});
