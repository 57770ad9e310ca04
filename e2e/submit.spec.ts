import type { Page } from '@playwright/test';
import {
  checkA11y,
  chooseOption,
  dialogSentences,
  expect,
  type Lang,
  normaliseSpace,
  openPrefilledForm,
  pdfText,
  sendRequest,
  test,
  tickDeclarations,
} from './fixtures.js';

/**
 * Finish, the confirmation dialog, the submission and the success screen (issue 6) against the
 * real server and a demo person (docs/register.md): the PDF is downloaded and read back.
 */

const TEXT = {
  cs: {
    addAbroad: 'Přidat pobyt v zahraničí',
    modalClose: 'Rozumím',
    dialog: 'Potvrzení a odeslání žádosti',
    dateInvalid: 'Žádost bude pravděpodobně zamítnuta',
    sendAnyway: 'Přesto odeslat žádost',
    back: 'Zpět k formuláři',
    success: 'Žádost je připravena k podpisu a odeslání',
    attachments: 'Přiložte tyto doklady',
    again: 'Stáhnout žádost (PDF) znovu',
    exit: 'Zpět na úvodní stránku',
    employerFrom: 'Začátek zaměstnání (MM/RRRR)',
    reason:
      /váš doklad o spolehlivosti platí do (\d{1,2}\. \S+ \d{4}) a o nový lze požádat nejdříve (\d{1,2}\. \S+ \d{4})\./,
    pdfState: 'Čekáme na Vaši podepsanou žádost – úřad ji zatím nemá',
    pdfPosition: 'Pracovní pozice (z registru)',
    pdfPositionLabel: 'Pracovní pozice',
    alreadySent: 'Žádost už byla odeslána',
  },
  en: {
    addAbroad: 'Add a stay abroad',
    modalClose: 'I understand',
    dialog: 'Confirm and send your request',
    dateInvalid: 'Your request will probably be refused',
    sendAnyway: 'Send the request anyway',
    back: 'Back to the form',
    success: 'Your request is ready to sign and send',
    attachments: 'Attach these documents',
    again: 'Download the request (PDF) again',
    exit: 'Back to the home page',
    employerFrom: 'Employed since (MM/YYYY)',
    reason:
      /your background-check certificate is valid until (\d{1,2} \S+ \d{4}), and a new one can be requested from (\d{1,2} \S+ \d{4}) at the earliest\./,
    pdfState: 'Waiting for your signed request – the Authority does not have it yet',
    pdfPosition: 'Position (from the register)',
    pdfPositionLabel: 'Position',
    alreadySent: 'This request has already been sent',
  },
} as const;

/** The day `days` from today (Prague) as the dialog writes it: "23. září 2027", "23 September 2027". */
function longDate(days: number, lang: Lang): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'cs-CZ', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(d);
}

/** Step 1 with the demo person who has every field (Štěpán Dvořák), then a stay abroad. */
async function prefilledForm(page: Page, lang: Lang) {
  const x = TEXT[lang];
  const finish = await openPrefilledForm(page, lang);
  await page.getByRole('button', { name: x.addAbroad }).click();
  await page.getByRole('button', { name: x.modalClose }).click();
  await chooseOption(page, 'abroad_stay-0-state', lang === 'cs' ? 'Němec' : 'Germ');
  await page.locator('#abroad_stay-0-reason').fill('Studium v Mnichově');
  await expect(finish).toHaveAttribute('data-state', 'valid');
  return finish;
}

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test(`finish, confirm, submit, success and the PDF (${lang})`, async ({ page }) => {
    test.setTimeout(120000);
    if (lang === 'cs') await page.setViewportSize({ width: 375, height: 800 });
    const shot = (name: string) =>
      process.env.ROS_E2E_SHOTS ? page.screenshot({ path: `e2e/.out/submit-${name}-${lang}.png` }) : null;
    const finish = await test.step('form', () => prefilledForm(page, lang));
    // A neutral label (issue 28: "Zaměstnán od" was masculine only).
    await expect(page.getByText(x.employerFrom, { exact: true })).toBeVisible();
    await finish.click();

    // Dvořák's certificate is valid for a long time: the invalid-date variant.
    const dialog = page.getByRole('dialog', { name: x.dialog });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(x.dateInvalid);
    // The one reason that applies, with its dates (issue 28): valid 300 more days, 90-day window.
    const warning = normaliseSpace((await page.getByTestId('confirm-warning').textContent()) ?? '');
    const [, until, from] = warning.match(x.reason) ?? [];
    expect(until, warning).toBe(longDate(300, lang));
    expect(from).toBe(longDate(210, lang));
    // Focus starts on the title: the dialog opens at its top and its warning is read out.
    await expect(dialog.getByRole('heading', { name: x.dialog })).toBeFocused();
    const send = dialog.getByRole('button', { name: x.sendAnyway });
    await expect(send).toHaveAttribute('aria-disabled', 'true');
    // Escape closes it and focus returns to the finish button; nothing was sent.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(finish).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();

    // The demo person has a telephone: the SMS choice is open.
    await expect(page.getByTestId('confirm-phone')).toBeEnabled();
    await tickDeclarations(page);
    await page.getByTestId('confirm-email').check();
    await expect(send).not.toHaveAttribute('aria-disabled');
    await test.step('axe dialog', () => checkA11y(page));
    await shot('dialog');
    // What the applicant is asked to agree to: the PDF must say the same, word for word (issue 22).
    const sentences = await dialogSentences(page);
    expect(sentences[0]).toContain(
      lang === 'cs' ? 'vlastnoručně podepíšu' : 'sign the printed request by hand',
    );

    const { success, reference, download } = await sendRequest(page, send, x.success);
    await expect(page.getByTestId('attachment-alert')).toContainText(x.attachments);
    // Where it tells people to send it to the data mailbox, it gives the mailbox's ID (issue 28).
    await expect(success).toContainText('v8gaaz5');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    const file = await download;
    expect(file.suggestedFilename()).toBe(`${reference}.pdf`);
    const text = await pdfText(await file.path());
    expect(text).toContain(reference);
    expect(text).toContain('Štěpán');
    expect(text).toContain('Dvořák');
    const flat = normaliseSpace(text);
    // What the PDF is (issue 28): prepared for signature, not received; a value the form did not
    // show is printed only as the register's.
    expect(flat).toContain(x.pdfState);
    expect(flat).not.toMatch(/Přijato|Received/);
    expect(flat).toContain(x.pdfPosition);
    // The label appears once, and only with "(from the register)".
    expect(flat.split(x.pdfPositionLabel).length).toBe(2);
    for (const sentence of sentences) expect(flat).toContain(sentence);

    // Still on the success screen (the PDF is an attachment); the link downloads it again.
    await expect(success).toBeVisible();
    await test.step('axe success', () => checkA11y(page));
    await shot('success');
    const again = page.waitForEvent('download');
    await page.getByRole('link', { name: x.again }).click();
    expect((await again).suggestedFilename()).toBe(`${reference}.pdf`);

    // The draft is gone, and the exit button reloads the app at home, in the same language.
    expect(await page.evaluate(() => sessionStorage.getItem('ros-form-draft'))).toBeNull();
    await page.getByRole('button', { name: x.exit }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang === 'en' ? '\\?lang=en' : ''}$`));

    // A shared computer (issue 28): the next person opens a new form; Back twice reaches the
    // sent request's entry, which shows "already sent", not its reference or details.
    await page.goto(lang === 'en' ? '/form?lang=en' : '/form');
    await expect(page.getByTestId('search-submit')).toBeVisible();
    await page.goBack();
    await page.goBack();
    await expect(page.getByRole('heading', { name: x.alreadySent })).toBeVisible();
    await expect(page.getByText(reference)).toHaveCount(0);
    await expect(page.getByTestId('submit-success')).toHaveCount(0);
  });
}
