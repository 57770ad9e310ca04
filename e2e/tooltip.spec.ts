import type { Locator, Page } from '@playwright/test';
import { checkA11y, expect, fillWithoutDocument, test } from './fixtures.js';

/**
 * Tooltips (spec section 9: offset 7 px; top, bottom, left, right; small and large; light and dark;
 * shows on pointer enter, hides on pointer leave), plus what WCAG 1.4.13 asks: shown on keyboard
 * focus too, Escape dismisses, the pointer can move onto it. On the request form's info buttons,
 * the finish button and the remove-row buttons.
 */

const TEXT = {
  cs: {
    birthNumberHelp: 'Nápověda: Rodné číslo',
    birthNumberTip: 'Rodné číslo přidělené v České republice',
    finishTip: 'Některé údaje chybí nebo nejsou správně',
    remove: 'Odebrat činnost 1',
    removeTip: 'Odebere tuto činnost',
  },
  en: {
    birthNumberHelp: 'Help: Birth number',
    birthNumberTip: 'The personal number assigned in the Czech Republic',
    finishTip: 'Some details are missing or wrong',
    remove: 'Remove activity 1',
    removeTip: 'Removes this activity',
  },
} as const;

/** The spec's offset between the trigger and the tooltip. */
const OFFSET = 7;

/** The tooltip a trigger is described by. */
async function tipOf(page: Page, trigger: Locator): Promise<Locator> {
  const id = await trigger.getAttribute('aria-describedby');
  expect(id).toBeTruthy();
  return page.locator(`[id="${id}"]`);
}

/** The gap between the trigger's and the tooltip's boxes on the tooltip's side, and that side. */
async function gap(trigger: Locator, tip: Locator): Promise<{ side: string; px: number }> {
  const t = await trigger.boundingBox();
  const b = await tip.boundingBox();
  if (!t || !b) throw new Error('not laid out');
  const side = (await tip.getAttribute('data-position')) ?? '';
  const px =
    side === 'top'
      ? t.y - (b.y + b.height)
      : side === 'bottom'
        ? b.y - (t.y + t.height)
        : side === 'left'
          ? t.x - (b.x + b.width)
          : b.x - (t.x + t.width);
  return { side, px };
}

/** The tooltip lies inside the viewport. */
async function expectInViewport(page: Page, tip: Locator): Promise<void> {
  const b = await tip.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(b).not.toBeNull();
  expect(b?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((b?.x ?? 0) + (b?.width ?? 0)).toBeLessThanOrEqual(width);
}

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test.describe(`tooltips (${lang})`, () => {
    test('hover shows, leave hides, 7 px away, hoverable; axe with one open', async ({ page }) => {
      test.setTimeout(120000);
      await page.setViewportSize({ width: 1280, height: 800 });
      const finish = await fillWithoutDocument(page, lang);
      const info = page.getByRole('button', { name: x.birthNumberHelp });
      const tip = await tipOf(page, info);
      await expect(tip).toHaveAttribute('role', 'tooltip');
      await expect(tip).toBeHidden();

      // Room above: it opens on top, 7 px from the button, the light theme, large.
      await info.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await info.hover();
      await expect(tip).toBeVisible();
      await expect(tip).toContainText(x.birthNumberTip);
      await expect(tip).toHaveClass(/tooltip--large/);
      await expect(tip).toHaveClass(/tooltip--light/);
      const top = await gap(info, tip);
      expect(top.side).toBe('top');
      expect(top.px).toBeCloseTo(OFFSET, 0);
      await checkA11y(page);

      // The pointer may move onto the tooltip without it closing.
      const box = await tip.boundingBox();
      if (!box) throw new Error('no tooltip box');
      // The page's clock is ours from here: run it past the hide grace (TOOLTIP_HIDE_DELAY_MS,
      // 200 ms) at once, however busy the machine; a hide that was not cancelled happens in it.
      await page.clock.install();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height - 2, { steps: 5 });
      await page.clock.runFor(1000);
      await expect(tip).toBeVisible();

      // Leaving hides it.
      await page.mouse.move(5, 5);
      await expect(tip).toBeHidden();

      // No room above: flips below.
      await info.evaluate((el) => {
        el.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -2);
      });
      await info.hover();
      await expect(tip).toBeVisible();
      const below = await gap(info, tip);
      expect(below.side).toBe('bottom');
      expect(below.px).toBeCloseTo(OFFSET, 0);
      await page.mouse.move(5, 5);
      await expect(tip).toBeHidden();

      // The finish button explains its warning icon (dark, small).
      await finish.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await finish.hover();
      const finishTip = await tipOf(page, finish);
      await expect(finishTip).toBeVisible();
      await expect(finishTip).toContainText(x.finishTip);
      await expect(finishTip).toHaveClass(/tooltip--dark/);
      await expect(finishTip).toHaveClass(/tooltip--small/);
      expect((await gap(finish, finishTip)).px).toBeCloseTo(OFFSET, 0);
      await checkA11y(page);
      await page.mouse.move(5, 5);
      await expect(finishTip).toBeHidden();

      // A remove-row button: to the right, 7 px away.
      await page.getByTestId('add-activity').click();
      const remove = page.getByRole('button', { name: x.remove });
      await remove.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await remove.hover();
      const removeTip = await tipOf(page, remove);
      await expect(removeTip).toContainText(x.removeTip);
      const right = await gap(remove, removeTip);
      expect(right.side).toBe('right');
      expect(right.px).toBeCloseTo(OFFSET, 0);
    });

    test('keyboard focus shows, Escape hides, blur hides; fits a 320 px screen', async ({ page }) => {
      test.setTimeout(120000);
      await fillWithoutDocument(page, lang);
      const info = page.getByRole('button', { name: x.birthNumberHelp });
      const tip = await tipOf(page, info);
      await expect(info).toHaveAccessibleDescription(new RegExp(x.birthNumberTip));

      // Reach the button with the keyboard.
      await info.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await expect(info).toBeFocused();
      await expect(tip).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(tip).toBeHidden();
      await expect(info).toBeFocused();
      // Enter brings it back; Tab away hides it.
      await page.keyboard.press('Enter');
      await expect(tip).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(tip).toBeHidden();

      // 320 px: a right-side tooltip without room moves inside the screen; nothing scrolls sideways.
      await page.setViewportSize({ width: 320, height: 700 });
      await page.getByTestId('add-activity').click();
      const remove = page.getByRole('button', { name: x.remove });
      await remove.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await remove.hover();
      const removeTip = await tipOf(page, remove);
      await expect(removeTip).toBeVisible();
      await expectInViewport(page, removeTip);
      expect((await gap(remove, removeTip)).px).toBeCloseTo(OFFSET, 0);
      await info.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await info.hover();
      await expect(tip).toBeVisible();
      await expectInViewport(page, tip);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(320);
      await checkA11y(page);
    });
  });
}

test.describe('tooltips on a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 375, height: 740 } });

  test('a tap on an info button toggles its tooltip; a tap elsewhere closes it', async ({ page }) => {
    await fillWithoutDocument(page, 'en');
    const info = page.getByRole('button', { name: TEXT.en.birthNumberHelp });
    const tip = await tipOf(page, info);
    await info.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await info.tap();
    await expect(tip).toBeVisible();
    await expectInViewport(page, tip);
    await info.tap();
    await expect(tip).toBeHidden();
    await info.tap();
    await expect(tip).toBeVisible();
    // Somewhere else on the page (the form's H1 is for screen readers only: the band shows the title).
    await page.getByTestId('step2-intro').tap();
    await expect(tip).toBeHidden();
  });
});
