import {
  checkA11y,
  expect,
  fillWithoutDocument,
  openPrefilledForm,
  test,
  tickDeclarations,
} from './fixtures.js';

/**
 * Issue 13, "what people hit": a failed finish or send is seen and announced on a phone
 * (375 px): one message at the top of the form, in view with its heading, with focus; Enter in
 * a dropdown without a match does not finish the form.
 */

test.use({ viewport: { width: 375, height: 667 } });

test('a failed finish on a phone: the summary heading is in view and focused, one message', async ({
  page,
}) => {
  test.setTimeout(90000);
  const finish = await fillWithoutDocument(page, 'en');
  // Enter in a list box with no match stays in the box: no finish, no summary.
  await page.locator('#birth_state').fill('Xyzzy');
  await page.locator('#birth_state').press('Enter');
  await expect(page.getByTestId('error-summary')).toHaveCount(0);
  await finish.click();
  const summary = page.getByTestId('error-summary');
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('heading', { name: 'There is a problem' })).toBeInViewport();
  await expect(page.locator('.alert-list [data-alert-key]')).toHaveCount(0);
  // Page order: the country of birth before the place, the contact address before the employer.
  const texts = await summary.getByRole('link').allTextContents();
  expect(texts.indexOf('Choose your country of birth')).toBeLessThan(
    texts.indexOf('Enter your place of birth'),
  );
  expect(texts.indexOf('Enter the street of your contact address')).toBeLessThan(
    texts.indexOf('Enter your current employer'),
  );
  await checkA11y(page);
});

test('a failed send on a phone: the message is in view, focused and offers to send again', async ({
  page,
}) => {
  test.setTimeout(120000);
  const finish = await openPrefilledForm(page, 'en');
  // The server cannot be made to fail on purpose: this one answer is replaced by a 503.
  await page.route('**/api/ros', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'x' } }),
        })
      : route.continue(),
  );
  await finish.click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible({ timeout: 20000 });
  // The dialog opens at its title (focus there), so its warning is read and seen first.
  await expect(dialog.getByRole('heading', { name: 'Confirm and send your request' })).toBeFocused();
  await tickDeclarations(page);
  await dialog.getByTestId('confirm-submit').click();
  const notice = page.getByTestId('form-notice');
  await expect(notice).toBeFocused({ timeout: 30000 });
  await expect(notice).toBeInViewport();
  await expect(notice).toHaveAttribute('data-alert-key', 'ALERTS.SUBMIT_FORM_ERROR');
  await expect(page.locator('[data-alert-key="ALERTS.SUBMIT_FORM_ERROR"]')).toHaveCount(1);
  await expect(notice.getByRole('button', { name: 'Send the request again' })).toBeVisible();
  await checkA11y(page);
});
