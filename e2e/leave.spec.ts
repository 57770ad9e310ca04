import type { Page } from '@playwright/test';
import {
  checkA11y,
  continueWithoutDocument,
  expect,
  fillWithoutDocument,
  type Lang,
  test,
  url,
} from './fixtures.js';

/**
 * Leaving the request form with typed input asks first (docs/form.md, "Draft and leaving"):
 * in-app links and the browser's Back go through our dialog; the language switch does not ask.
 */

const TEXT = {
  cs: {
    home: 'úvodní stránka',
    homeH1: 'Jak chcete žádost podat?',
    title: 'Opustit formulář?',
    stay: 'Zůstat ve formuláři',
    leave: 'Opustit formulář',
    other: 'English',
  },
  en: {
    home: 'home page',
    homeH1: 'How do you want to apply?',
    title: 'Leave the form?',
    stay: 'Stay on the form',
    leave: 'Leave the form',
    other: 'Čeština',
  },
} as const;

const homeUrl = (lang: Lang) => new RegExp(`:\\d+/${lang === 'en' ? '\\?lang=en' : ''}$`);
const formUrlRe = (lang: Lang) => new RegExp(`/form${lang === 'en' ? '\\?lang=en' : ''}$`);
const homeLink = (page: Page, lang: Lang) =>
  page.getByRole('banner').getByRole('link', { name: TEXT[lang].home });

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test.describe(`leaving the form (${lang})`, () => {
    // Each test solves the search's ALTCHA challenge and runs axe: generous on a busy machine.
    test.describe.configure({ timeout: 120000 });

    test('the header home link asks; Stay keeps the input, Leave goes home and drops the draft', async ({
      page,
    }) => {
      await fillWithoutDocument(page, lang);
      const first = page.locator('#first_name');
      await first.fill('Jana');

      await homeLink(page, lang).click();
      const dialog = page.getByRole('alertdialog', { name: x.title });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: x.stay, exact: true })).toBeFocused();
      await expect(page).toHaveURL(formUrlRe(lang));
      await checkA11y(page);

      await dialog.getByRole('button', { name: x.stay, exact: true }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page).toHaveURL(formUrlRe(lang));
      await expect(first).toHaveValue('Jana');
      // Focus returns to the link that was followed.
      await expect(homeLink(page, lang)).toBeFocused();

      // Keyboard: Enter on the link asks again; Leave goes home.
      await page.keyboard.press('Enter');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: x.leave, exact: true }).click();
      await expect(page).toHaveURL(homeUrl(lang));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.homeH1);
      await expect(dialog).toHaveCount(0);

      // The draft went with it: back on the form, the search step starts afresh.
      await page.goBack();
      await expect(page).toHaveURL(formUrlRe(lang));
      await expect(page.getByTestId('search-submit')).toBeVisible();
      await expect(page.getByTestId('finish')).toHaveCount(0);
    });

    test('the browser Back button asks too; Escape stays', async ({ page }) => {
      // Reach the form from home, so Back stays inside the app.
      await page.goto(url('/', lang));
      await page.getByTestId('choice-basic').click();
      await expect(page).toHaveURL(formUrlRe(lang));
      await continueWithoutDocument(page, lang);
      const first = page.locator('#first_name');
      await first.fill('Jana');

      await page.goBack();
      const dialog = page.getByRole('alertdialog', { name: x.title });
      await expect(dialog).toBeVisible();
      await expect(page).toHaveURL(formUrlRe(lang));
      await checkA11y(page);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(page).toHaveURL(formUrlRe(lang));
      await expect(first).toHaveValue('Jana');

      await page.goBack();
      await dialog.getByRole('button', { name: x.leave, exact: true }).click();
      await expect(page).toHaveURL(homeUrl(lang));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.homeH1);
    });

    test('an untouched form leaves without asking; the language switch never asks', async ({ page }) => {
      await fillWithoutDocument(page, lang);
      await homeLink(page, lang).click();
      await expect(page).toHaveURL(homeUrl(lang));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.homeH1);
      await expect(page.getByRole('alertdialog')).toHaveCount(0);

      // Leaving ended the draft, so the form starts at the search again.
      await fillWithoutDocument(page, lang);
      await page.locator('#first_name').fill('Jana');
      // The language switch keeps the form and what was typed.
      await page.getByRole('banner').getByRole('link', { name: x.other }).click();
      const other: Lang = lang === 'cs' ? 'en' : 'cs';
      await expect(page).toHaveURL(formUrlRe(other));
      await expect(page.locator('html')).toHaveAttribute('lang', other);
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(page.locator('#first_name')).toHaveValue('Jana');
    });
  });
}
