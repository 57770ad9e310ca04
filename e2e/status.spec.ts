import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { pdfQrCodes } from '../packages/server/src/test/pdfQr';
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
 * The request status page (issue 26, docs/status.md) against the real server: a request sent
 * through the form, moved on by the intake API, looked up by the link of the PDF's QR code, by
 * the link of the status e-mail (the .eml in the outbox), and typed by hand (right and wrong
 * code), in Czech and English, with axe on every state.
 */
const REPO = resolve(import.meta.dirname, '..');
const DATA = resolve(REPO, `e2e/.out/data-${E2E_PORT}`);
const OUTBOX = resolve(DATA, 'outbox');

const TEXT = {
  cs: {
    success: 'Žádost je připravena k podpisu',
    heading: 'Stav žádosti',
    waiting: 'Čekáme na Vaši podepsanou žádost',
    documents: 'Je třeba doložit podklady',
    issued: 'Rozhodnuto: doklad o spolehlivosti byl vydán',
    notFound: 'Žádost s tímto číslem a přístupovým kódem jsme nenašli',
    reference: 'Číslo žádosti',
    code: 'Přístupový kód',
    validity: 'Ověřit platnost vydaného dokladu',
    corrected: 'Rozhodnutí opraveno',
    correctedLater: 'Toto rozhodnutí úřad později opravil.',
    inProgress: 'Žádost ve zpracování',
  },
  en: {
    success: 'Your request is ready to sign',
    heading: 'Request status',
    waiting: 'Waiting for your signed request',
    documents: 'Documents needed',
    issued: 'Decided: the background-check certificate was issued',
    notFound: 'We found no request with this reference number and access code',
    reference: 'Reference number',
    code: 'Access code',
    validity: 'Check the validity of the issued certificate',
    corrected: 'Decision corrected',
    correctedLater: 'The Authority corrected this decision later.',
    inProgress: 'Request being processed',
  },
} as const;

/** The status link in the QR code on the PDF's first page (its left half: the reference's QR is top right). */
async function statusQr(path: string): Promise<string | null> {
  const [qr] = await pdfQrCodes(await readFile(path), { pages: 1, leftHalf: true });
  return qr ?? null;
}

let token = '';
/** An intake token with the status scope, made by ros-admin on the server's data folder. */
function intakeToken(): string {
  if (token) return token;
  const out = execFileSync(
    'node',
    [
      'packages/server/dist/cli.js',
      'tokens',
      'create',
      '--name',
      `e2e-status-${Date.now()}`,
      '--scopes',
      'requests:status,requests:read',
    ],
    { cwd: REPO, env: { ...process.env, ROS_DATA_DIR: DATA, LOG_LEVEL: 'silent' }, encoding: 'utf8' },
  );
  token = /ros_[A-Za-z0-9_-]{43}/.exec(out)?.[0] ?? '';
  expect(token).not.toBe('');
  return token;
}

async function setStatus(
  request: APIRequestContext,
  reference: string,
  body: Record<string, string>,
): Promise<void> {
  const res = await request.post(`/api/intake/v1/requests/${reference}/status`, {
    headers: { authorization: `Bearer ${intakeToken()}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * The validity-check id of Štěpán's demo certificate (1001, valid 300 days from the day the demo
 * was loaded): an issued request may link only a certificate of its own person (issue 33).
 */
function stepanCertificate(): string {
  const out = execFileSync('node', ['packages/server/dist/cli.js', 'records', 'show', '1001'], {
    cwd: REPO,
    env: { ...process.env, ROS_DATA_DIR: DATA, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  const id = /check link:\s+\/check\?id=(1001x\d+)/.exec(out)?.[1] ?? '';
  expect(id).not.toBe('');
  return id;
}

/** The text part of the newest status e-mail of a reference in the outbox. */
async function statusMail(reference: string, status: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const files = (await readdir(OUTBOX).catch(() => [] as string[])).filter((f) =>
          f.startsWith(`${reference}_status-`),
        );
        for (const f of files) {
          const mail = await simpleParser(await readFile(resolve(OUTBOX, f)));
          if ((mail.subject ?? '').includes(status)) text = mail.text ?? '';
        }
        return text !== '';
      },
      { timeout: 45000 },
    )
    .toBe(true);
  return text;
}

/** The page's path and fragment of an absolute link (the server's public address may differ). */
const local = (link: string) => {
  const u = new URL(link);
  return `${u.pathname}${u.search}${u.hash}`;
};

async function sendThroughForm(page: Page, lang: 'cs' | 'en') {
  const finish = await openPrefilledForm(page, lang);
  await finish.click();
  await tickDeclarations(page);
  await page.getByTestId('confirm-email').check();
  return sendRequest(page, page.getByTestId('confirm-submit'), TEXT[lang].success);
}

for (const lang of ['cs', 'en'] as const) {
  const x = TEXT[lang];

  test(`status page: PDF QR link, e-mail link, timeline and the validity link (${lang})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(180000);
    if (lang === 'cs') await page.setViewportSize({ width: 375, height: 800 });
    const { reference, download } = await sendThroughForm(page, lang);

    // The success screen shows the code and the link.
    const code = (await page.getByTestId('status-access-code').textContent()) ?? '';
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    const successLink = await page.getByTestId('status-access-link').getAttribute('href');
    const plain = code.replaceAll('-', '');
    expect(successLink).toBe(
      `${lang === 'en' ? '/request-status?lang=en' : '/stav-zadosti'}#${reference}/${plain}`,
    );

    // The PDF prints the code next to the reference and holds the link as a QR code.
    const pdf = await (await download).path();
    expect(await pdfText(pdf)).toContain(code);
    const qr = await statusQr(pdf);
    expect(qr).toMatch(new RegExp(`#${reference}/${plain}$`));

    // Following the QR code's link: waiting for the signed paper.
    await page.goto(local(qr as string));
    await expect(page.getByRole('heading', { level: 1, name: x.heading })).toBeVisible();
    const steps = page.getByTestId('status-step');
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(1)).toContainText(x.waiting);
    await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');
    await expect(page.getByTestId('status-result')).not.toContainText('Štěpán');
    await expect(page.getByTestId('status-result')).not.toContainText('Dvořák');
    await test.step('axe waiting', () => checkA11y(page));

    // The authority moves it on; the e-mail (consented) carries the link.
    await setStatus(request, reference, { status: 'received' });
    await setStatus(request, reference, {
      status: 'documents_needed',
      note: lang === 'cs' ? 'Doložte prosím kopii pasu.' : 'Please send a copy of your passport.',
    });
    const mail = await statusMail(reference, lang === 'cs' ? 'doložit' : 'documents needed');
    const mailLink = /https?:\/\/\S+#ROS-\S+/.exec(mail)?.[0] ?? '';
    expect(local(mailLink)).toBe(successLink);
    await page.goto('/');
    await page.goto(local(mailLink));
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(2)).toContainText(x.documents);
    await expect(page.getByTestId('status-note')).toContainText(
      lang === 'cs' ? 'kopii pasu' : 'copy of your passport',
    );
    await test.step('axe documents needed', () => checkA11y(page));

    await setStatus(request, reference, { status: 'in_progress' });
    const certificate = stepanCertificate();
    await setStatus(request, reference, { status: 'issued', certificate });
    await page.reload();
    await expect(steps.last()).toContainText(x.issued);
    await test.step('axe issued', () => checkA11y(page));
    await page.getByRole('link', { name: x.validity }).click();
    await expect(page).toHaveURL(new RegExp(`/check\\?id=${certificate}${lang === 'en' ? '&lang=en' : ''}$`));
    await expect(page.getByTestId('validity-verified')).toBeVisible();

    // Issue 38: the authority corrects the decision; the page shows the correction and its reason.
    const reason = lang === 'cs' ? 'Rozhodnutí bylo vydáno předčasně.' : 'The decision was made too early.';
    const corrected = await request.post(`/api/intake/v1/requests/${reference}/correction`, {
      headers: { authorization: `Bearer ${intakeToken()}` },
      data: { status: 'in_progress', reason },
    });
    expect(corrected.status(), await corrected.text()).toBe(200);
    await page.goto(local(mailLink));
    await expect(steps).toHaveCount(6);
    await expect(steps.nth(4)).toContainText(x.issued);
    await expect(steps.nth(4)).toContainText(x.correctedLater);
    await expect(steps.last()).toContainText(x.corrected);
    await expect(steps.last()).toContainText(x.inProgress);
    await expect(page.getByTestId('status-correction-reason')).toContainText(reason);
    await expect(steps.last()).toHaveAttribute('aria-current', 'step');
    await expect(page.getByRole('link', { name: x.validity })).toHaveCount(0);
    await test.step('axe corrected', () => checkA11y(page));
  });

  test(`status page typed by keyboard: empty fields, then an unknown reference (${lang})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120000);
    const res = await request.post('/api/ros/status', {
      data: { reference: 'ROS-2026-999999', code: 'AAAA-BBBB-CCCC' },
    });
    expect(res.status()).toBe(404);
    // The narrowest screen the portal supports: nothing scrolls sideways.
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(lang === 'en' ? '/request-status?lang=en' : '/stav-zadosti');
    await expect(page.getByRole('heading', { level: 1, name: x.heading })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await test.step('axe form', () => checkA11y(page));
    // Empty: both fields say what they need, focus on the first.
    await page.getByTestId('status-submit').click();
    await expect(page.getByLabel(x.reference, { exact: true })).toBeFocused();
    await expect(page.getByLabel(x.reference, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.type('ROS-2026-999999');
    await page.keyboard.press('Tab');
    await page.keyboard.type('abcd efgh jkmn');
    await page.keyboard.press('Enter');
    // Focus on the answer, named by its words (issue 35; e2e/speech.spec.ts hears it once).
    const problem = page.getByRole('region', { name: x.notFound });
    await expect(problem).toBeFocused();
    // What was typed stays; a code that cannot be one is refused in the browser, and the last
    // answer goes away.
    await expect(page.getByLabel(x.reference, { exact: true })).toHaveValue('ROS-2026-999999');
    await page.getByLabel(x.code, { exact: true }).fill('AB0');
    await page.getByLabel(x.code, { exact: true }).press('Enter');
    await expect(page.getByLabel(x.code, { exact: true })).toBeFocused();
    await expect(page.getByLabel(x.code, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(problem).toHaveCount(0);
    await test.step('axe wrong code', () => checkA11y(page));
  });
}

test('the status path in other case is the page at its own path; /request-status is its alias', async ({
  page,
}) => {
  await page.goto('/Stav-Zadosti');
  await expect(page).toHaveURL(/\/stav-zadosti$/);
  await page.goto('/request-status?lang=en');
  await expect(page.getByRole('heading', { level: 1, name: 'Request status' })).toBeVisible();
});
