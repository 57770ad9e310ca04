import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
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
    confirm: 'Potvrzení a odeslání žádosti',
    close: 'Zavřít',
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
    confirm: 'Confirm and send your request',
    close: 'Close',
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
  expect(await focusedNode(page)).toMatchObject({ role: 'button', name: TEXT[lang].signInAgain });
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

const SHOTS = resolve(import.meta.dirname, `.out/screens-${MAIN}`);

/** Screenshots of the open dialogs at a phone's and a desktop's width, to look at. */
async function shots(page: Page, name: string, lang: Lang): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await page.screenshot({ path: resolve(SHOTS, `dialog-${name}-${lang}-${width}.png`) });
  }
  await page.setViewportSize(size);
}

/** The testid of the dialog that holds the focus ('' when focus is outside every dialog). */
const focusedDialog = (page: Page) =>
  page.evaluate(
    () =>
      document.activeElement?.closest<HTMLElement>('dialog, [role=dialog], [role=alertdialog]')?.dataset
        .testid ?? '',
  );

/** What a click at the middle of `target` would hit: true when it is `target` (or inside it). */
async function hitsAtItsMiddle(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && el.contains(hit);
  });
}

for (const lang of ['en', 'cs'] as const) {
  test(`the session warning opens above the confirmation dialog and works by mouse and keyboard (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const x = TEXT[lang];
    // The browser's clock is the test's: the 30-minute session's warning comes without waiting.
    await page.clock.install();
    await signIn(page, lang, MAIN_ORIGIN);
    await page.getByTestId('finish').click();
    const confirm = page.getByRole('dialog', { name: x.confirm });
    await expect(confirm).toBeVisible({ timeout: 30_000 });
    expect(await focusedDialog(page)).toBe('confirm-dialog');

    // 28:30 later: the warning (2 minutes before the end) opens while the confirmation is open.
    await page.clock.fastForward('28:30');
    const warning = page.getByRole('alertdialog', { name: x.warn });
    await expect(warning).toBeVisible();
    const more = warning.getByRole('button', { name: x.more });
    // On top: a click at "more time" lands on it, not on the confirmation below; focus is on it,
    // and Tab stays in the warning.
    expect(await hitsAtItsMiddle(more)).toBe(true);
    expect(await hitsAtItsMiddle(warning.getByRole('heading', { name: x.warn }))).toBe(true);
    await expect(more).toBeFocused();
    const close = warning.getByRole('button', { name: x.close });
    await page.keyboard.press('Tab');
    await expect(close).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(more).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(close).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(more).toBeFocused();
    // The confirmation below is out of reach (inert): its boxes take no focus.
    await page.getByTestId('confirm-signature').focus();
    expect(await focusedDialog(page)).toBe('session-dialog');
    await test.step('axe warning over the confirmation', () => checkA11y(page));
    await shots(page, 'session-warning', lang);

    // A real click (Playwright refuses one that something else would take) on "more time".
    await more.click();
    await expect(warning).toHaveCount(0);
    // Focus is back in the confirmation dialog, which is still open and works.
    await expect(confirm).toBeVisible();
    expect(await focusedDialog(page)).toBe('confirm-dialog');
    await page.getByTestId('confirm-signature').check();

    // The warning again, closed by Escape this time; then the end, also above the confirmation.
    await page.clock.fastForward('28:30');
    await expect(warning).toBeVisible();
    await expect(more).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(warning).toHaveCount(0);
    await expect(confirm).toBeVisible();
    expect(await focusedDialog(page)).toBe('confirm-dialog');
    await page.clock.fastForward('02:00');
    const ended = page.getByRole('alertdialog', { name: x.ended });
    await expect(ended).toBeVisible();
    const again = ended.getByRole('button', { name: x.signInAgain });
    await expect(again).toBeFocused();
    expect(await hitsAtItsMiddle(again)).toBe(true);
    expect(await hitsAtItsMiddle(ended.getByRole('button', { name: x.paper }))).toBe(true);
    // A choice is needed: Escape (twice: the browser's own second-Escape close too) keeps it.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(ended).toBeVisible();
    expect(await focusedDialog(page)).toBe('session-dialog');
    await test.step('axe ended over the confirmation', () => checkA11y(page));
    await shots(page, 'session-ended', lang);
    await page.keyboard.press('Tab');
    await expect(ended.getByRole('button', { name: x.paper })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(ended).toHaveCount(0);
    // On paper now, back in the confirmation dialog where the person was.
    await expect(confirm).toBeVisible();
    expect(await focusedDialog(page)).toBe('confirm-dialog');
    await expect(confirm).not.toContainText('(NIA)');
  });
}

/** Presses Tab until `target` has the focus (at most `max` presses): the keyboard's way there. */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

for (const lang of ['cs', 'en'] as const) {
  test(`a NIA request sent by keyboard alone, the warning having come over the confirmation (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const x = TEXT[lang];
    await page.clock.install();
    await signIn(page, lang, MAIN_ORIGIN);
    const finish = page.getByTestId('finish');
    await tabTo(page, finish, 200);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: x.confirm });
    await expect(confirm).toBeVisible({ timeout: 30_000 });
    // The first declaration ticked, then the warning arrives over the dialog.
    const signature = page.getByTestId('confirm-signature');
    await tabTo(page, signature);
    await page.keyboard.press('Space');
    await expect(signature).toBeChecked();
    await page.clock.fastForward('28:30');
    const warning = page.getByRole('alertdialog', { name: x.warn });
    await expect(warning).toBeVisible();
    await expect(warning.getByRole('button', { name: x.more })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(warning).toHaveCount(0);
    // The browser's clock now runs 28:30 ahead of the server's: the bot check's proof still
    // comes (its expiry is read in the browser's time, docs/bot-check.md), so Send goes through.
    // Back where the person was: the declaration still ticked and focused; the rest by keyboard.
    await expect(signature).toBeFocused();
    await expect(signature).toBeChecked();
    for (const id of ['affidavit', 'purpose']) {
      const box = page.getByTestId(`confirm-${id}`);
      await tabTo(page, box);
      await page.keyboard.press('Space');
      await expect(box).toBeChecked();
    }
    const send = page.getByTestId('confirm-submit');
    await tabTo(page, send);
    await page.keyboard.press('Enter');
    // Sent to the Authority through NIA (the e-mail variant), within the session More time kept.
    await expect(page.getByTestId('submit-success')).toHaveAttribute('data-variant', 'email', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('submit-success').getByRole('heading', { name: x.success })).toBeVisible();
  });
}

test('at 320×256 (400 % zoom) the session warning opens at its title, More time focused and in view (cs)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const x = TEXT.cs;
  await page.clock.install();
  await signIn(page, 'cs', MAIN_ORIGIN);
  await page.setViewportSize({ width: 320, height: 256 });
  await page.clock.fastForward('28:30');
  const warning = page.getByRole('alertdialog', { name: x.warn });
  await expect(warning).toBeVisible();
  const more = warning.getByRole('button', { name: x.more });
  await expect(more).toBeFocused();
  await expect(warning.getByRole('heading', { name: x.warn })).toBeInViewport();
  await expect(more).toBeInViewport();
  expect(await warning.evaluate((el) => el.scrollTop)).toBe(0);
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: resolve(SHOTS, 'dialog-session-warning-cs-320x256.png') });
});
