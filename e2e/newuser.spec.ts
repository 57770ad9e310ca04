import { expect, fillSearch, formUrl, type Lang, PEOPLE, SEARCH_TEXT, test } from './fixtures.js';

/**
 * What a new user met (issue 28), on the paths the other specs do not walk: the search step's
 * boxes and the leave question survive a reload, the register-not-found path at 375 px, the
 * duplicate form's copy button. The sent-request items ride on the specs that already send one
 * (submit.spec.ts, nia.spec.ts), so that no extra full submit is needed.
 */

const TEXT = {
  cs: {
    notFound: 'Podle zadaných údajů jsme nenašli nikoho',
    copy: 'Zkopírovat adresu trvalého pobytu',
    leave: 'Opustit formulář?',
    home: 'úvodní stránka',
  },
  en: {
    notFound: 'We found no one holding a background-check certificate',
    copy: 'Copy the permanent address',
    leave: 'Leave the form?',
    home: 'home page',
  },
} as const;

for (const lang of ['cs', 'en'] as const satisfies Lang[]) {
  const x = TEXT[lang];
  const s = SEARCH_TEXT[lang];

  test(`not in the register at 375 px: entries survive a reload, fill in by hand, the guard after a reload (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120000);
    await page.setViewportSize({ width: 375, height: 700 });
    // The duplicate form: its not-found warning is the page's (it stayed above step 2).
    await page.goto(formUrl(lang, true));
    await fillSearch(page, lang, PEOPLE.nobody);

    // Item 1: a reload (a phone reloads background tabs) keeps the search step's boxes.
    await page.reload();
    await expect(page.getByLabel(s.first, { exact: true })).toHaveValue(PEOPLE.nobody.first);
    await expect(page.getByLabel(s.last, { exact: true })).toHaveValue(PEOPLE.nobody.last);
    await expect(page.getByLabel(s.type)).toHaveValue('OP_CR');
    await expect(page.getByLabel(s.number)).toHaveValue(PEOPLE.nobody.number);

    // Item 4: the action is named for what it is and comes into view with the answer.
    await page.getByTestId('search-submit').click();
    await expect(page.getByText(x.notFound)).toBeVisible({ timeout: 30000 });
    const byHand = page.getByRole('button', { name: s.without, exact: true });
    await expect(byHand).toBeInViewport();
    await byHand.click();
    await expect(page.getByRole('heading', { name: s.manual })).toBeFocused();
    // The search's warning went with the search.
    await expect(page.getByText(x.notFound)).toHaveCount(0);

    // Item 8: an empty contact address in the duplicate form can be copied from the permanent one.
    await page.locator('#home_street').fill('Na Příkopě');
    const copy = page.getByRole('button', { name: x.copy });
    await copy.click();
    await expect(page.locator('#contact_street')).toHaveValue('Na Příkopě');

    // Item 1: after a reload the typed draft is back and leaving still asks; Stay keeps it.
    await page.reload();
    await expect(page.locator('#home_street')).toHaveValue('Na Příkopě');
    await page.getByRole('banner').getByRole('link', { name: x.home }).click();
    const dialog = page.getByRole('alertdialog', { name: x.leave });
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('leave-stay').click();
    await expect(page.locator('#home_street')).toHaveValue('Na Příkopě');
  });
}
