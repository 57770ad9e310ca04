import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import {
  AUTHORITY,
  attachmentNotes,
  authorityPostalAddress,
  currentLegalVersion,
  firstState,
  requestState,
  stateWords,
} from '@ros/domain';
import {
  checkA11y,
  chooseOption,
  expect,
  fillWithoutDocument,
  formUrl,
  type Lang,
  normaliseSpace,
  openPrefilledForm,
  PEOPLE,
  passEarlyRefusal,
  pdfText,
  sendRequest,
  submitSearch,
  test,
  tickDeclarations,
  url,
} from './fixtures.js';
import { i18nText } from './i18nText.js';
import { E2E_PORT } from './playwright.config';

const REPO = resolve(import.meta.dirname, '..');

/** An intake token with the status scope, made by ros-admin on the server's data folder. */
function intakeToken(): string {
  const out = execFileSync(
    'node',
    [
      'packages/server/dist/cli.js',
      'tokens',
      'create',
      '--name',
      `e2e-journey-${Date.now()}`,
      '--scopes',
      'requests:status',
    ],
    {
      cwd: REPO,
      env: { ...process.env, ROS_DATA_DIR: resolve(REPO, `e2e/.out/data-${E2E_PORT}`), LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    },
  );
  return /ros_[A-Za-z0-9_-]{43}/.exec(out)?.[0] ?? '';
}

/**
 * The applicant's journey says one true thing at every step (issue 36): one test per point of the
 * issue, in Czech and English, walking what the person meets on the built app.
 */

const TEXT = {
  cs: {
    earlyTitle: 'Žádost bude pravděpodobně zamítnuta',
    earlyReason: /váš doklad o spolehlivosti platí do \d{1,2}\. \S+ \d{4} a o nový lze požádat nejdříve/,
    success: 'Žádost je připravena k podpisu a odeslání',
    dialog: 'Potvrzení a odeslání žádosti',
    sendAnyway: 'Přesto odeslat žádost',
    now: 'Aktuální stav:',
    certificateNumber: 'Číslo dokladu',
    validUntil: 'Platí do',
    verified: 'Doklad o spolehlivosti je platný',
    statusForm: 'Číslo žádosti',
    niaOnly: 'u žádosti odeslané po přihlášení identitou občana také v potvrzujícím e-mailu',
    addAbroad: 'Přidat pobyt v zahraničí',
    germany: 'Němec',
    notFound: 'Stránka nenalezena',
  },
  en: {
    earlyTitle: 'Your request will probably be refused',
    earlyReason:
      /your background-check certificate is valid until \d{1,2} \S+ \d{4}, and a new one can be requested from/,
    success: 'Your request is ready to sign and send',
    dialog: 'Confirm and send your request',
    sendAnyway: 'Send the request anyway',
    now: 'Current status:',
    certificateNumber: 'Certificate number',
    validUntil: 'Valid until',
    verified: 'The background-check certificate is valid',
    statusForm: 'Reference number',
    niaOnly: 'for a request sent after signing in with the citizen identity, also in its confirmation e-mail',
    addAbroad: 'Add a stay abroad',
    germany: 'Germ',
    notFound: 'Page not found',
  },
} as const;

for (const lang of ['cs', 'en'] as const satisfies readonly Lang[]) {
  const x = TEXT[lang];

  test(`point 1: told right after the search, with the dates, before the form (${lang})`, async ({
    page,
  }) => {
    await page.goto(formUrl(lang));
    await submitSearch(page, lang, PEOPLE.dvorak);
    const notice = page.getByTestId('early-refusal');
    await expect(notice).toBeVisible({ timeout: 30_000 });
    await expect(notice.getByRole('heading', { name: x.earlyTitle })).toBeFocused();
    await expect(page.getByTestId('early-refusal-reason')).toHaveText(x.earlyReason);
    // Before the form: none of step 2 yet.
    await expect(page.getByTestId('finish')).toHaveCount(0);
    await checkA11y(page);
    await page.getByTestId('early-refusal-continue').click();
    await expect(page.getByTestId('finish')).toBeVisible({ timeout: 30_000 });
  });

  test(`points 2, 3, 4 and 7: where to send it and one word for its state, on screen, PDF and status page (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto(formUrl(lang));
    await submitSearch(page, lang, PEOPLE.dvorak);
    const finish = await passEarlyRefusal(page);
    await expect(finish).toHaveAttribute('data-state', 'valid');
    await finish.click();
    const dialog = page.getByRole('dialog', { name: x.dialog });
    await expect(dialog).toBeVisible();
    await tickDeclarations(page);
    const { success, download } = await sendRequest(
      page,
      dialog.getByRole('button', { name: x.sendAnyway }),
      x.success,
    );
    const waiting = stateWords(lang, requestState('new', 'pdf'));
    await expect(page.getByTestId('submit-state')).toHaveText(waiting.step);
    // Where to send it: the address and the data box, on the screen, in the footer and on the PDF.
    await expect(success).toContainText(authorityPostalAddress(lang));
    await expect(success).toContainText(AUTHORITY.dataBox);
    await expect(page.getByTestId('footer-address')).toContainText(AUTHORITY.address[lang]);
    await expect(page.getByTestId('footer-address')).toContainText(AUTHORITY.dataBox);
    const pdf = normaliseSpace(await pdfText(await (await download).path()));
    expect(pdf).toContain(authorityPostalAddress(lang));
    expect(pdf).toContain(AUTHORITY.dataBox);
    expect(pdf).toContain(waiting.step);
    // The status page the success screen links to says the same.
    const code = (await page.getByTestId('status-access-code').textContent()) ?? '';
    await page.getByTestId('status-access-link').click();
    // Point 7: the code is not lost with the success screen: the status page shows it.
    await expect(page.getByTestId('status-code')).toContainText(code);
    await expect(page.getByTestId('status-now')).toHaveText(`${x.now} ${waiting.state}`);
    const steps = page.getByTestId('status-step');
    await expect(steps.nth(0)).toContainText(stateWords(lang, firstState('pdf')).step);
    await expect(steps.nth(1)).toContainText(waiting.step);
    // Point 7: a new note with the same status is news: stored as a change and shown.
    const reference = (
      await page.getByTestId('status-result').getByRole('heading', { level: 2 }).textContent()
    )?.match(/ROS-\d{4}-\d{6}/)?.[0];
    const token = intakeToken();
    const post = (data: Record<string, string>) =>
      page.request.post(`/api/intake/v1/requests/${reference}/status`, {
        headers: { authorization: `Bearer ${token}` },
        data,
      });
    expect((await post({ status: 'received' })).status()).toBe(200);
    expect(
      (await (await post({ status: 'documents_needed', note: 'Pošlete kopii pasu.' })).json()).changed,
    ).toBe(true);
    expect(
      (await (await post({ status: 'documents_needed', note: 'Pošlete kopii pasu.' })).json()).changed,
    ).toBe(false);
    expect(
      (await (await post({ status: 'documents_needed', note: 'Pošlete i výpis.' })).json()).changed,
    ).toBe(true);
    await page.reload();
    await expect(page.getByTestId('status-note')).toHaveText(['Pošlete kopii pasu.', 'Pošlete i výpis.']);

    // Point 4: Back to the sent request's entry: "already sent" points to the PDF, and to an
    // e-mail only for a request sent after the citizen-identity sign-in (this one got none).
    await page.goBack();
    const sent = page.getByTestId('already-sent');
    await expect(sent).toContainText('PDF');
    await expect(sent).toContainText(x.niaOnly);
  });

  test(`point 6: from the home page to the status page and to a typed certificate's check (${lang})`, async ({
    page,
  }) => {
    await page.goto(url('/', lang));
    await page.getByTestId('home-status-link').click();
    await expect(page.getByLabel(x.statusForm, { exact: true })).toBeVisible();
    // Point 4: the form says where the code is without promising every applicant an e-mail.
    await expect(page.getByTestId('status-form')).toContainText(x.niaOnly);
    await page.goBack();
    await page.getByTestId('home-check-link').click();
    await expect(page).toHaveURL(lang === 'en' ? /\/check\?lang=en$/ : /\/check$/);
    await expect(page.getByTestId('check-form')).toBeVisible();
    await checkA11y(page);
    // The demo certificate 990000001, valid until 31.12.2027 (docs/validity.md).
    await page.getByLabel(x.certificateNumber, { exact: true }).fill('990 000 001');
    await page.getByLabel(x.validUntil, { exact: true }).fill('31.12.2027');
    await page.getByTestId('check-submit').click();
    await expect(page.getByTestId('validity-verified').getByRole('heading', { level: 2 })).toHaveText(
      x.verified,
    );
    await expect(page).toHaveURL(/\/check\?id=990000001x2070/);
  });

  test(`point 5: the stays-abroad pop-up gives the PDF's and success screen's instruction (${lang})`, async ({
    page,
  }) => {
    await fillWithoutDocument(page, lang);
    await page.getByRole('button', { name: x.addAbroad }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('abroad-modal-note')).toHaveText(
      attachmentNotes(currentLegalVersion(), lang, ['abroad'])[0] ?? 'none',
    );
  });

  test(`point 5: the "activities incomplete" warning goes once the 5 years are covered (${lang})`, async ({
    page,
  }) => {
    await fillWithoutDocument(page, lang);
    const now = new Date();
    const since = page.locator('#employer_current_from');
    const warning = page.locator('[data-alert-key="ALERTS.TIME_NOT_COVERED"]');
    await since.fill(`${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear()}`);
    await since.press('Tab');
    await expect(warning).toBeVisible();
    await expect(page.getByTestId('coverage')).toContainText('(59)');
    await since.fill(`01/${now.getFullYear() - 6}`);
    await since.press('Tab');
    await expect(page.getByTestId('coverage')).toContainText(i18nText(lang, 'FORM.COVERAGE.ALL'));
    // The section says covered, and nothing above it says otherwise any more.
    await expect(warning).toHaveCount(0);
    await checkA11y(page);
  });

  test(`point 10: not-found answered by the server, no district for a birth abroad (${lang})`, async ({
    page,
  }) => {
    const q = lang === 'en' ? '?lang=en' : '';
    for (const path of ['/foo.html', '/index.html', '/check?id=1x2x3']) {
      const res = await page.goto(`${path}${q ? (path.includes('?') ? '&lang=en' : q) : ''}`);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.notFound);
    }
    await fillWithoutDocument(page, lang);
    await chooseOption(page, 'birth_state', x.germany);
    await expect(page.locator('#birth_municipality')).not.toHaveAttribute('role', 'combobox');
    await expect(page.locator('#birth_district')).toHaveCount(0);
  });

  test(`point 9: the SMS consent says the gateway receives the reference and the status, not the access code (${lang})`, async ({
    page,
  }) => {
    const finish = await openPrefilledForm(page, lang);
    await finish.click();
    const phone = page.locator('.choice-item', { has: page.getByTestId('confirm-phone') });
    await expect(phone).toContainText(
      lang === 'cs'
        ? 'poskytovatel SMS brány, který tak dostane telefonní číslo, číslo žádosti a nový stav žádosti (přístupový kód ne)'
        : 'SMS gateway provider, which thereby receives the telephone number, the reference number and the new status of the request (not the access code)',
    );
  });
}
