import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { axByRole, axTree, focusedNode, liveRegions } from './a11y.js';
import {
  checkA11y,
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

/**
 * Issue 27: what a person using a screen reader, high contrast or zoom meets, checked the way
 * their tools see the page: Chromium's accessibility tree over CDP (names, descriptions, live
 * regions, focus, set size and position), Chromium's forced-colours emulation with screenshots,
 * a 320 px wide window (400 % zoom of 1280 px), and a fake clock for "does it close itself".
 * docs/accessibility.md lists what each test covers.
 */

const SHOTS = resolve(import.meta.dirname, `.out/screens-${process.env.ROS_E2E_PORT ?? 4180}`);
async function shot(page: Page, name: string, lang: Lang): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: resolve(SHOTS, `a11y-${name}-${lang}.png`) });
}

const TEXT = {
  cs: {
    noItems: 'Nic nenalezeno',
    results: /^Počet výsledků: \d+$/,
    loading: 'Načítám...',
    sending: 'Odesílám žádost…',
    notSent: 'Žádost nebyla odeslána',
    nextSteps: /Nic nebylo uloženo/,
  },
  en: {
    noItems: 'No items found',
    results: /^Results: \d+$/,
    loading: 'Loading...',
    sending: 'Sending your request…',
    notSent: 'Your request was not sent',
    nextSteps: /Nothing was stored/,
  },
} as const;

/** Whether two boxes overlap. */
const overlap = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test(`messages to act on stay and sit by their control, at 320 px (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    // 400 % zoom of a 1280 px window; the clock is ours, so "does it close itself" needs no wait.
    await page.setViewportSize({ width: 320, height: 480 });
    await page.clock.install();
    await page.goto(formUrl(lang));
    await submitSearch(page, lang, PEOPLE.nobody);
    const notice = page.getByTestId('search-notice');
    await expect(notice).toBeVisible({ timeout: 20_000 });
    // Announced (an alert in the accessibility tree with the text), in view beside the button.
    const alerts = await axByRole(page, 'alert');
    expect(alerts.some((a) => a.text.includes(lang === 'en' ? 'We found no person' : 'nenašli'))).toBe(true);
    await notice.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('search-submit')).toBeInViewport();
    await page.clock.fastForward('00:30');
    await expect(notice).toBeVisible();
    await checkA11y(page);
    await notice.getByRole('button').click();
    await expect(notice).toHaveCount(0);

    // Without a document: an employer start that leaves months uncovered warns under the box.
    await page.getByRole('button', { name: SEARCH_TEXT[lang].without }).click();
    await expect(page.getByTestId('finish')).toBeVisible({ timeout: 30_000 });
    const now = new Date();
    const from = page.locator('#employer_current_from');
    await from.fill(`${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear()}`);
    await page.locator('#employer_current_description').focus();
    const coverage = page.getByTestId('coverage-notice');
    await expect(coverage).toBeVisible();
    await page.clock.fastForward('00:30');
    await expect(coverage).toBeVisible();
    const gap = (await coverage.boundingBox())?.y ?? 0;
    const field = (await from.boundingBox())?.y ?? 0;
    expect(Math.abs(gap - field)).toBeLessThan(400);
  });

  test(`the combobox tells a screen reader the count, none, loading, and each option's place (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // The municipality list answers late (delayed, not replaced): the box says it is loading.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/ros/municipalities*', async (route) => {
      await held;
      await route.continue();
    });
    await page.setViewportSize({ width: 320, height: 640 });
    await fillWithoutDocument(page, lang);
    const state = page.locator('#birth_state');
    const status = page.getByTestId('birth_state-status');

    await state.fill('Xyzzy');
    await expect(status).toHaveText(x.noItems);
    const [box] = await axByRole(page, 'combobox', lang === 'en' ? /Country of birth/ : /Stát narození/);
    expect(box?.props.activedescendant).toBeUndefined();
    expect((await liveRegions(page)).some((r) => r.live === 'polite' && r.text === x.noItems)).toBe(true);

    await state.fill('');
    await state.press('ArrowDown');
    await expect(status).toHaveText(x.results);
    const count = Number((await status.textContent())?.match(/\d+/)?.[0]);
    expect(count).toBeGreaterThan(50);
    // The list is virtualised, yet each option says where it is in the whole list.
    const shown = new Set(await page.getByTestId('birth_state-panel').getByRole('option').allTextContents());
    const options = (await axTree(page)).filter((n) => n.role === 'option' && shown.has(n.name));
    expect(options.length).toBeGreaterThan(0);
    expect(options.length).toBeLessThan(count);
    // CDP's accessibility tree has no set size or position: the attributes it reads them from.
    const first = page.getByTestId('birth_state-panel').getByRole('option').first();
    await expect(first).toHaveAttribute('aria-setsize', String(count));
    await expect(first).toHaveAttribute('aria-posinset', '1');
    await state.press('End');
    await expect(page.locator('#birth_state-listbox [aria-selected="true"]')).toHaveAttribute(
      'aria-posinset',
      String(count),
    );
    const [open] = await axByRole(page, 'combobox', lang === 'en' ? /Country of birth/ : /Stát narození/);
    expect(open?.props.activedescendant).toBeTruthy();

    // 320 px: long options wrap instead of being cut.
    await state.fill(lang === 'en' ? 'Saint' : 'Svatý');
    await state.press('ArrowDown');
    const cut = await page
      .getByTestId('birth_state-panel')
      .getByRole('option')
      .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
    expect(cut).toBe(0);
    await shot(page, 'combobox-320', lang);
    await state.press('Escape');

    // A Czech birth: the municipality box, while its list loads.
    await state.fill(lang === 'en' ? 'Czech' : 'Česk');
    await state.press('Enter');
    const place = page.locator('#birth_municipality');
    await place.fill('Br');
    await expect(page.getByTestId('birth_municipality-status')).toHaveText(x.loading);
    await expect(page.getByTestId('birth_municipality-panel')).toContainText(x.loading);
    await expect(page.getByTestId('birth_municipality-panel')).not.toContainText(x.noItems);
    release();
    await expect(page.getByTestId('birth_municipality-status')).toHaveText(x.results);
    // Closed for axe: an open list scrolls while focus stays in its box (the combobox pattern).
    await place.press('Escape');
    await checkA11y(page);
  });

  test(`forced colours: the active option, the dialog's edge, a disabled send (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ forcedColors: 'active' });
    const finish = await openPrefilledForm(page, lang);
    const other = page.locator('#other_citizenships');
    await other.fill('');
    await other.press('ArrowDown');
    await other.press('ArrowDown');
    const panel = page.getByTestId('other_citizenships-panel');
    const colours = await panel.getByRole('option').evaluateAll((els) =>
      els.slice(0, 3).map((e) => ({
        active: e.getAttribute('aria-selected') === 'true',
        bg: getComputedStyle(e).backgroundColor,
      })),
    );
    const active = colours.find((c) => c.active);
    const rest = colours.filter((c) => !c.active);
    expect(active).toBeTruthy();
    for (const c of rest) expect(c.bg).not.toBe(active?.bg);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'forced-combobox', lang);
    await other.press('Escape');

    await finish.click();
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    const edge = await dialog.evaluate((d) => {
      const s = getComputedStyle(d);
      return { width: Number.parseFloat(s.borderTopWidth), style: s.borderTopStyle };
    });
    expect(edge.width).toBeGreaterThanOrEqual(1);
    expect(edge.style).not.toBe('none');
    // Nothing ticked: the send button cannot send and looks so (GrayText, not the enabled colour).
    const send = page.getByTestId('confirm-submit');
    const cancel = dialog.getByRole('button').last();
    const [sendColour, cancelColour] = await Promise.all([
      send.evaluate((b) => getComputedStyle(b).color),
      cancel.evaluate((b) => getComputedStyle(b).color),
    ]);
    expect(sendColour).not.toBe(cancelColour);
    await shot(page, 'forced-dialog', lang);
  });

  test(`"Sending…" is announced; a failed send focuses a named alert with next steps (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const finish = await openPrefilledForm(page, lang);
    // The send is held a moment (then answered 503: the server cannot be made to fail on purpose).
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/ros', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await held;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'x' } }),
      });
    });
    await finish.click();
    await expect(page.getByTestId('confirm-dialog')).toBeVisible({ timeout: 20_000 });
    await tickDeclarations(page);
    await page.getByTestId('confirm-submit').click();
    await expect
      .poll(async () => (await liveRegions(page)).some((r) => r.live === 'polite' && r.text === x.sending), {
        timeout: 30_000,
      })
      .toBe(true);
    await expect(page.getByTestId('confirm-submit')).toHaveAccessibleName(x.sending);
    expect((await axByRole(page, 'button', x.sending)).length).toBe(1);
    release();
    const notice = page.getByTestId('form-notice');
    await expect(notice).toBeFocused({ timeout: 30_000 });
    const focused = await focusedNode(page);
    // A named section that takes focus, not also an alert (said once, issue 35).
    expect(focused).toMatchObject({ role: 'region', name: x.notSent });
    expect(focused?.text).toMatch(x.nextSteps);
    await checkA11y(page);
  });

  test(`smaller ones: abroad notice, retry focus, footer names, group name, tooltip (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    // Footer links: named by their words, not the arrow.
    await page.goto(formUrl(lang));
    await expect(page.getByRole('contentinfo').getByRole('link').first()).toBeVisible();
    const links = (await axTree(page)).filter((n) => n.role === 'link');
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l.name).not.toContain('↗');

    // The duplicate retry: focus moves to the new birth-number box.
    await page.goto(formUrl(lang, true));
    await submitSearch(page, lang, PEOPLE.prochazka);
    const bn = page.getByLabel(SEARCH_TEXT[lang].birthNumber, { exact: true });
    await expect(bn).toBeFocused({ timeout: 20_000 });
    expect(await focusedNode(page)).toMatchObject({ role: 'textbox' });

    await page.setViewportSize({ width: 375, height: 700 });
    await openPrefilledForm(page, lang);
    // The employer check's group is named by its legend only (its help button is not part of it).
    const groups = (await axTree(page)).filter((n) => n.role === 'group' || n.role === 'radiogroup');
    const label = lang === 'en' ? 'How the employment is proven' : 'Způsob doložení zaměstnání';
    expect(groups.find((g) => g.name.startsWith(label))?.name).toBe(label);

    // A hover tooltip never covers the field that has focus: the box above the birth number's help.
    const info = page
      .locator('#birth_number')
      .locator('xpath=ancestor::div[contains(@class,"field")][1]')
      .locator('.info-button');
    const above: Locator = page
      .locator('#birth_number')
      .locator('xpath=preceding::input[not(@type="hidden")][1]');
    await above.focus();
    await info.hover();
    const tip = page.getByRole('tooltip').filter({ visible: true });
    if ((await tip.count()) > 0) {
      const [t, f] = await Promise.all([
        tip.first().evaluate((e) => e.getBoundingClientRect().toJSON()),
        above.evaluate((e) => e.getBoundingClientRect().toJSON()),
      ]);
      expect(overlap(t as DOMRect, f as DOMRect)).toBe(false);
    }
    await expect(above).toBeFocused();

    // The stay-abroad notice: its text is the dialog's description.
    await page
      .getByRole('button', { name: lang === 'en' ? 'Add a stay abroad' : 'Přidat pobyt v zahraničí' })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    const [ax] = await axByRole(page, 'dialog');
    expect(ax?.description.length).toBeGreaterThan(20);
    expect(await dialog.locator('p').first().textContent()).toContain(ax?.description.slice(0, 20));
  });
}
