import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import Database from 'better-sqlite3';
import {
  checkA11y,
  expect,
  openPrefilledForm,
  pdfText,
  sendRequest,
  test,
  tickDeclarations,
} from './fixtures';
import { E2E_PORT } from './playwright.config';

/**
 * The authority's console (issue 38, docs/console.md) against the real server, in Czech, by
 * keyboard alone, with axe on every screen: a clerk's day from the sign-in through the local
 * staff provider to a corrected certificate and a resent notification, each step seen on the
 * applicant's status page; a reader who can look but not act; a staff member without a role who
 * gets nothing; the administrator's audit trail naming the clerk's looks.
 */
const REPO = resolve(import.meta.dirname, '..');
const DATA = resolve(REPO, `e2e/.out/data-${E2E_PORT}`);

/** `ros-admin` on the server's data folder. */
function rosAdmin(...args: string[]): string {
  return execFileSync('node', ['packages/server/dist/cli.js', ...args], {
    cwd: REPO,
    env: { ...process.env, ROS_DATA_DIR: DATA, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
}

/** The validity-check id of a certificate (`ros-admin records show`). */
function checkId(record: number): string {
  const id = new RegExp(`check link:\\s+/check\\?id=(${record}x\\d+)`).exec(
    rosAdmin('records', 'show', String(record)),
  )?.[1];
  expect(id).toBeTruthy();
  return id as string;
}

/** Presses Tab until `target` has the focus (it must be reachable by keyboard), at most `max` times. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reached by Tab: ${target}`);
}

/** Moves a focused select to the option with this text by arrow keys (a closed select changes on them). */
async function chooseByKeys(page: Page, select: Locator, text: string): Promise<void> {
  await tabTo(page, select);
  await page.keyboard.press('Home');
  for (let i = 0; i < 10; i++) {
    const chosen = await select.evaluate(
      (el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '',
    );
    if (chosen === text) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`option not found: ${text}`);
}

/** Signs in to the console through the local staff provider by keyboard: the staff member's radio, then Enter. */
async function signIn(page: Page, who: RegExp): Promise<void> {
  await page.goto('/urad');
  await expect(page).toHaveURL(/\/urad\/prihlaseni$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Přihlášení do konzole úřadu' })).toBeVisible();
  await checkA11y(page);
  await tabTo(page, page.getByRole('link', { name: 'Přihlásit se účtem úřadu' }));
  await page.keyboard.press('Enter');
  const radio = page.getByRole('radio', { name: who });
  await expect(radio).toBeVisible();
  await checkA11y(page);
  await tabTo(page, page.getByRole('radio').first());
  for (let i = 0; i < 4 && !(await radio.isChecked()); i++) await page.keyboard.press('ArrowDown');
  await expect(radio).toBeChecked();
  await page.keyboard.press('Enter');
}

/** The applicant's status page, in its own browser context, as its link opens it. */
async function applicantSees(browser: Browser, link: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Stav žádosti' })).toBeVisible();
  return page;
}

test("a clerk's day in the console: find, read, receive, ask, issue, correct, resend (cs, keyboard only)", async ({
  page,
  browser,
}) => {
  test.setTimeout(240000);
  // Štěpán's older certificate, expired long ago, put into the register by the operator: the clerk
  // first issues it by mistake, then corrects the decision to his valid one (1001). Expired, it
  // changes nothing the other specs see of Štěpán (the told-early warning, duplicates): they share
  // this server's register.
  rosAdmin(
    'records',
    'issue',
    '--id',
    '1901',
    '--first-name',
    'Štěpán',
    '--last-name',
    'Dvořák',
    '--valid-until',
    '2024-06-30',
    '--person-id',
    '1001',
  );
  const wrong = checkId(1901);
  const right = checkId(1001);

  // The applicant sends a paper request, asking for e-mail notifications.
  const finish = await openPrefilledForm(page, 'cs');
  await finish.click();
  await tickDeclarations(page);
  await page.getByTestId('confirm-email').check();
  const { reference } = await sendRequest(
    page,
    page.getByTestId('confirm-submit'),
    'Žádost je připravena k podpisu',
  );
  const code = ((await page.getByTestId('status-access-code').textContent()) ?? '').replaceAll('-', '');
  const statusLink = `/stav-zadosti#${reference}/${code}`;

  // The clerk, in a browser of their own.
  const clerkContext = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const clerk = await clerkContext.newPage();
  await signIn(clerk, /Karel Úředník/);
  await expect(clerk.getByRole('heading', { level: 1, name: 'Fronta žádostí' })).toBeVisible();
  await expect(clerk.getByText('Přihlášen(a): Karel Úředník (referent)')).toBeVisible();
  await checkA11y(clerk);

  // Finds the request by name (no diacritics, the start of the surname) and birth date.
  await tabTo(clerk, clerk.getByLabel('Příjmení a jméno'));
  await clerk.keyboard.type('dvorak st');
  await tabTo(clerk, clerk.getByLabel('Datum narození'));
  await clerk.keyboard.type('15.3.1985');
  await clerk.keyboard.press('Enter');
  await expect(clerk.getByRole('heading', { level: 2, name: 'Výsledky hledání' })).toBeVisible();
  const row = clerk.getByRole('row', { name: new RegExp(reference) });
  await expect(row).toContainText('Štěpán Dvořák');
  await expect(row).toContainText('15.03.1985');
  await checkA11y(clerk);
  await tabTo(clerk, row.getByRole('link', { name: reference }));
  await clerk.keyboard.press('Enter');

  // Reads it: form labels and values as printed, code lists resolved, the declarations, the PDF.
  await expect(clerk.getByRole('heading', { level: 1, name: `Žádost ${reference}` })).toBeVisible();
  const main = clerk.getByRole('main');
  await expect(main).toContainText('Čekáme na Vaši podepsanou žádost');
  await expect(main).toContainText('Dvořák');
  await expect(main).not.toContainText('554782');
  await expect(clerk.getByRole('heading', { level: 2, name: 'Prohlášení a souhlasy' })).toBeVisible();
  await checkA11y(clerk, { exclude: ['iframe'] });
  const pdf = await clerk.request.get(`/urad/zadost/${reference}/pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const pdfPath = resolve(DATA, `console-${reference}.pdf`);
  await writeFile(pdfPath, await pdf.body());
  expect(await pdfText(pdfPath)).toContain(reference);

  // Receives it: the applicant sees it received.
  await tabTo(clerk, clerk.getByRole('button', { name: 'Označit jako přijatou' }));
  await clerk.keyboard.press('Enter');
  await expect(clerk.getByRole('status')).toContainText('Žádost je označena jako přijatá.');
  await checkA11y(clerk, { exclude: ['iframe'] });
  const applicant = await applicantSees(browser, statusLink);
  await expect(applicant.getByTestId('status-step').last()).toContainText('Žádost přijata úřadem');

  // Asks for documents with a note, through the preview of what the applicant will see.
  const note = 'Doložte prosím kopii cestovního pasu.';
  await chooseByKeys(clerk, clerk.getByLabel('Nový stav'), 'Je třeba doložit podklady');
  await tabTo(clerk, clerk.getByLabel('Poznámka pro žadatele (nepovinné)'));
  await clerk.keyboard.type(note);
  await tabTo(clerk, clerk.getByRole('button', { name: 'Pokračovat na náhled' }).first());
  await clerk.keyboard.press('Enter');
  await expect(
    clerk.getByRole('heading', { level: 1, name: 'Náhled: takto změnu uvidí žadatel' }),
  ).toBeVisible();
  await expect(clerk.getByRole('main')).toContainText(note);
  await expect(clerk.getByRole('main')).toContainText('Žadatel dostane oznámení: 1.');
  await checkA11y(clerk);
  await tabTo(clerk, clerk.getByRole('button', { name: 'Uložit změnu' }));
  await clerk.keyboard.press('Enter');
  await expect(clerk.getByRole('status')).toContainText('Stav žádosti je změněn.');
  await applicant.reload();
  await expect(applicant.getByTestId('status-step').last()).toContainText('Je třeba doložit podklady');
  await expect(applicant.getByTestId('status-step').last()).toContainText(note);

  // Issues it with one of the person's own certificates (the wrong one, as it turns out).
  await tabTo(clerk, clerk.getByRole('radio', { name: new RegExp(right) }));
  const wrongRadio = clerk.getByRole('radio', { name: new RegExp(wrong) });
  for (let i = 0; i < 3 && !(await wrongRadio.isChecked()); i++) await clerk.keyboard.press('ArrowDown');
  await expect(wrongRadio).toBeChecked();
  await tabTo(clerk, clerk.getByRole('button', { name: 'Pokračovat na náhled' }).last());
  await clerk.keyboard.press('Enter');
  await expect(clerk.getByRole('main')).toContainText(`/check?id=${wrong}`);
  await tabTo(clerk, clerk.getByRole('button', { name: 'Uložit změnu' }));
  await clerk.keyboard.press('Enter');
  await expect(clerk.getByRole('status')).toContainText('Doklad je vydán');
  await applicant.reload();
  await expect(applicant.getByRole('link', { name: 'Ověřit platnost vydaného dokladu' })).toHaveAttribute(
    'href',
    `/check?id=${wrong}`,
  );

  // Corrects the certificate with a reason: a new row, and the applicant's page shows the correction.
  const reason = 'Omylem byl uveden starší doklad; platný je tento.';
  await expect(clerk.getByRole('heading', { level: 3, name: 'Oprava rozhodnutí' })).toBeVisible();
  await tabTo(clerk, clerk.getByRole('radio', { name: 'bez dokladu' }));
  const rightRadio = clerk.getByRole('radio', { name: new RegExp(right) });
  for (let i = 0; i < 3 && !(await rightRadio.isChecked()); i++) await clerk.keyboard.press('ArrowDown');
  await expect(rightRadio).toBeChecked();
  await tabTo(clerk, clerk.getByLabel('Důvod opravy (uvidí ho žadatel)'));
  await clerk.keyboard.type(reason);
  await tabTo(clerk, clerk.getByRole('button', { name: 'Pokračovat na náhled' }));
  await clerk.keyboard.press('Enter');
  await expect(clerk.getByRole('main')).toContainText('Oprava rozhodnutí');
  await expect(clerk.getByRole('main')).toContainText(`/check?id=${right}`);
  await tabTo(clerk, clerk.getByRole('button', { name: 'Uložit změnu' }));
  await clerk.keyboard.press('Enter');
  await expect(clerk.getByRole('status')).toContainText('Oprava je uložena.');
  await checkA11y(clerk, { exclude: ['iframe'] });
  await applicant.reload();
  const last = applicant.getByTestId('status-step').last();
  await expect(last).toContainText('Rozhodnutí opraveno');
  await expect(last).toContainText(reason);
  await expect(applicant.getByRole('link', { name: 'Ověřit platnost vydaného dokladu' })).toHaveAttribute(
    'href',
    `/check?id=${right}`,
  );

  // A notification given up after a long outage (written as the mail queue leaves it), resent.
  const db = new Database(resolve(DATA, 'ros.sqlite'));
  try {
    const changed = db
      .prepare(
        "update status_notices set status = 'failed', attempts = 6, sent_at = null where request_id = (select id from requests where reference = ?) and id = (select min(id) from status_notices where request_id = (select id from requests where reference = ?))",
      )
      .run(reference, reference);
    expect(changed.changes).toBe(1);
  } finally {
    db.close();
  }
  await clerk.reload();
  const resend = clerk.getByRole('button', { name: /Odeslat znovu/ });
  await expect(resend).toHaveCount(1);
  await expect(clerk.getByRole('main')).toContainText('nepodařilo se odeslat');
  await tabTo(clerk, resend);
  await clerk.keyboard.press('Enter');
  await expect(clerk.getByRole('status')).toContainText('Oznámení bude odesláno znovu.');
  // The running mail queue sends it again: the page says so once it has.
  await expect
    .poll(
      async () => {
        await clerk.reload();
        return clerk.getByRole('cell', { name: 'nepodařilo se odeslat' }).count();
      },
      { timeout: 90000 },
    )
    .toBe(0);
  await clerkContext.close();
  await applicant.context().close();
});

test('a reader can look but not act; a staff member without a role gets nothing', async ({
  page,
  browser,
}) => {
  test.setTimeout(180000);
  const finish = await openPrefilledForm(page, 'cs');
  await finish.click();
  await tickDeclarations(page);
  const { reference } = await sendRequest(
    page,
    page.getByTestId('confirm-submit'),
    'Žádost je připravena k podpisu',
  );
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const reader = await context.newPage();
  await signIn(reader, /Alena Čtenářová/);
  await expect(reader.getByText('Přihlášen(a): Alena Čtenářová (čtenář)')).toBeVisible();
  const tabs = reader.getByRole('navigation', { name: 'Stav žádostí' });
  await expect(tabs.getByRole('link')).toHaveCount(5);
  await checkA11y(reader);
  // Štěpán's request, sent just now: the reader finds and reads it.
  await reader.getByLabel('Příjmení a jméno').fill('dvorak');
  await reader.keyboard.press('Enter');
  const link = reader.getByRole('table').getByRole('link', { name: reference });
  await expect(link).toBeVisible();
  await link.click();
  await expect(reader.getByRole('heading', { level: 1, name: `Žádost ${reference}` })).toBeVisible();
  await expect(reader.getByText('Máte roli čtenáře')).toBeVisible();
  await expect(reader.getByRole('button', { name: /Označit|Pokračovat|Odeslat znovu/ })).toHaveCount(0);
  await checkA11y(reader, { exclude: ['iframe'] });
  // A form sent anyway (with the reader's own session and token) is refused, and nothing changes.
  const csrf = await reader.locator('input[name=csrf]').first().inputValue();
  const res = await reader.request.post(`/urad/zadost/${reference}/prevzit`, {
    form: { csrf },
    headers: { origin: `http://127.0.0.1:${E2E_PORT}` },
  });
  expect(res.status()).toBe(403);
  await reader.reload();
  await expect(reader.getByRole('main')).toContainText('Čekáme na Vaši podepsanou žádost');
  // The audit trail is the administrator's.
  expect((await reader.request.get('/urad/audit')).status()).toBe(403);
  await context.close();

  // No role: the sign-in refuses, and the console stays closed.
  const noRole = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const petr = await noRole.newPage();
  await signIn(petr, /Petr Bezrole/);
  await expect(petr).toHaveURL(/\/urad\/prihlaseni\?chyba=no_role$/);
  await expect(petr.getByRole('alert')).toContainText('Váš účet nemá v konzoli žádnou roli');
  await checkA11y(petr);
  await petr.goto('/urad');
  await expect(petr).toHaveURL(/\/urad\/prihlaseni$/);
  await noRole.close();
});

test('the administrator sees who looked at which request, and makes and revokes an intake token', async ({
  browser,
}) => {
  test.setTimeout(120000);
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const admin = await context.newPage();
  await signIn(admin, /Marie Správcová/);
  await tabTo(admin, admin.getByRole('link', { name: 'Záznam přístupů' }));
  await admin.keyboard.press('Enter');
  await expect(admin.getByRole('heading', { level: 1, name: 'Záznam přístupů a úkonů' })).toBeVisible();
  await tabTo(admin, admin.getByLabel('Kdo (např. staff:test-clerk)'));
  await admin.keyboard.type('staff:test-admin');
  await admin.keyboard.press('Enter');
  // Her own sign-in and this look are in it, with her identity, and no personal value.
  const table = admin.getByRole('table', { name: 'Záznam přístupů a úkonů' });
  await expect(table.getByRole('row', { name: /console\.signin/ }).first()).toBeVisible();
  await expect(table).not.toContainText('Dvořák');
  await checkA11y(admin);

  // Správa: a token for a back-office system, made by keyboard, shown once, working, then revoked.
  await tabTo(admin, admin.getByRole('link', { name: 'Správa' }));
  await admin.keyboard.press('Enter');
  await expect(
    admin.getByRole('heading', { level: 1, name: 'Správa: tokeny a uchovávání údajů' }),
  ).toBeVisible();
  await checkA11y(admin);
  const name = `e2e-console-${Date.now()}`;
  await tabTo(admin, admin.getByLabel('Název tokenu'));
  await admin.keyboard.type(name);
  await tabTo(admin, admin.getByRole('checkbox', { name: /requests:read/ }));
  await admin.keyboard.press('Space');
  await tabTo(admin, admin.getByRole('button', { name: 'Vytvořit token' }));
  await admin.keyboard.press('Enter');
  await expect(admin.getByRole('heading', { level: 2, name: `Nový token „${name}“` })).toBeVisible();
  const token = (await admin.locator('code').first().textContent()) ?? '';
  expect(token).toMatch(/^ros_[A-Za-z0-9_-]{43}$/);
  await checkA11y(admin);
  const intake = (t: string) =>
    admin.request.get('/api/intake/v1/requests', { headers: { authorization: `Bearer ${t}` } });
  expect((await intake(token)).status()).toBe(200);
  // Shown once: the page again does not hold it.
  await admin.goto('/urad/sprava');
  await expect(admin.getByRole('main')).not.toContainText(token);
  await tabTo(admin, admin.getByRole('button', { name: `Zrušit token ${name}` }));
  await admin.keyboard.press('Enter');
  await expect(admin.getByRole('status')).toContainText('Token je zrušen');
  expect((await intake(token)).status()).toBe(401);
  await context.close();
});
