import { axByRole } from './a11y.js';
import {
  expect,
  fillSearch,
  fillWithoutDocument,
  formUrl,
  openPrefilledForm,
  PEOPLE,
  test,
} from './fixtures.js';

/** Issue 35's smaller points (item 8), each where a person meets it. */

test('the pointer row and the keyboard row of a combobox look different', async ({ page }) => {
  test.setTimeout(60_000);
  await fillWithoutDocument(page, 'en');
  const box = page.locator('#birth_state');
  await box.fill('Ge');
  const panel = page.getByTestId('birth_state-panel');
  await expect(panel.getByRole('option').nth(1)).toBeVisible();
  await box.press('ArrowDown');
  const active = panel.locator('[role="option"][aria-selected="true"]');
  await expect(active).toHaveCount(1);
  const other = panel.locator('[role="option"][aria-selected="false"]').first();
  await other.hover();
  const look = async () => [
    await active.evaluate((el) => getComputedStyle(el).backgroundColor),
    await other.evaluate((el) => getComputedStyle(el).backgroundColor),
  ];
  const [a1, b1] = await look();
  expect(a1).not.toBe(b1);
  // Forced colours: the keyboard's row filled with Highlight, the pointer's only edged.
  await page.emulateMedia({ forcedColors: 'active' });
  const [a2, b2] = await look();
  expect(a2).not.toBe(b2);
});

test("the authority's Czech note is marked Czech on the English status page", async ({ page }) => {
  await page.route('**/api/ros/status', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        reference: 'ROS-2026-000001',
        status: 'documents_needed',
        channel: 'pdf',
        submitted_at: '2026-05-04T08:00:00Z',
        events: [
          { status: 'new', at: '2026-05-04T08:00:00Z', note: null },
          {
            status: 'documents_needed',
            at: '2026-05-06T08:00:00Z',
            note: 'Doložte prosím výpis z rejstříku trestů.',
          },
        ],
        certificate: null,
      }),
    }),
  );
  await page.goto('/request-status?lang=en#ROS-2026-000001/ABCD-EFGH-JKMN');
  await expect(page.getByTestId('status-note')).toHaveAttribute('lang', 'cs');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('a click on the backdrop of a dialog leaves focus in it; Tab does not reach the page behind', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const finish = await openPrefilledForm(page, 'en');
  await finish.click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible();
  const inDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('dialog')));
  expect(await inDialog()).toBe(true);
  await page.mouse.click(3, 3);
  expect(await inDialog()).toBe(true);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await inDialog()).toBe(true);
  }
  // Finish, behind it, is out of Chromium's accessibility tree while the dialog is open, and
  // back once it closes.
  expect(await axByRole(page, 'button', /Finish the request/)).toHaveLength(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(finish).toBeFocused();
  expect(await axByRole(page, 'button', /Finish the request/)).toHaveLength(1);
});

test('Space on the verified bot-check box keeps it verified and says so', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(formUrl('en'));
  await fillSearch(page, 'en', PEOPLE.dvorak);
  const widget = page.getByTestId('botcheck');
  await expect(widget.locator('.altcha')).toHaveAttribute('data-state', 'verified', { timeout: 30_000 });
  const box = widget.locator('.altcha-checkbox input');
  await box.focus();
  await page.keyboard.press('Space');
  await expect(widget.getByRole('status')).toHaveText('Already checked: you can go on.');
  await expect(box).toBeChecked();
  await expect(widget.locator('.altcha')).toHaveAttribute('data-state', 'verified');
});
