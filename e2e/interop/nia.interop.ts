import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { OAuth2Server } from 'oauth2-mock-server';
import { passEarlyRefusal } from '../steps.js';

/**
 * NIA sign-in end to end in Chromium, through the built portal, against oauth2-mock-server (an
 * OpenID provider nobody here wrote; RS256, its issuer with a trailing slash, the standard
 * OpenID claim names, HTTP Basic client authentication). The portal runs with the local test
 * provider off and the mock as ROS_NIA_ISSUER, like a production portal with the real NIA.
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PORT = Number(process.env.ROS_E2E_PORT ?? 4180);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DATA = resolve(repo, `e2e/.out/interop-data-${PORT}`);
const LOA = 'http://eidas.europa.eu/LoA/';

// Štěpán Dvořák of the demo register (docs/register.md), as a provider with standard claims releases him.
const scenario = { acr: `${LOA}substantial` };

let mock: OAuth2Server;
/** The provider's end_session requests (RP-initiated logout), their query parameters. */
const endSessions: URLSearchParams[] = [];
let portal: ChildProcess | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(60000);
  mock = new OAuth2Server(undefined, undefined, { shouldIssuerUrlBeSuffixedWithATralingSlash: true });
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
  mock.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    if (token.payload.aud === undefined || token.payload.scope !== undefined) return;
    Object.assign(token.payload, { sub: 'demo-nia-1001', acr: scenario.acr });
  });
  mock.service.on('beforeUserinfo', (res: { body: Record<string, unknown> }) => {
    res.body = { sub: 'demo-nia-1001', given_name: 'Štěpán', family_name: 'Dvořák', birthdate: '1985-03-15' };
  });
  mock.service.on('beforePostLogoutRedirect', (_r: unknown, req: { url?: string }) => {
    endSessions.push(new URL(req.url ?? '/', 'http://x').searchParams);
  });
  rmSync(DATA, { recursive: true, force: true });
  portal = spawn(process.execPath, ['packages/server/dist/main.js'], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      ROS_PUBLIC_URL: ORIGIN,
      ROS_DATA_DIR: DATA,
      ROS_REFERENCE_DIR: '',
      ROS_REFERENCE_DOWNLOAD: 'false',
      ROS_DEMO_DATA: 'true',
      ROS_NIA_TEST_PROVIDER: 'false',
      ROS_NIA_ISSUER: mock.issuer.url,
      // GUID-shaped, as NIA issues them: the mock reads HTTP Basic's id literally (nia/clientAuth.ts).
      ROS_NIA_CLIENT_ID: '0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
      ROS_NIA_CLIENT_SECRET: 'interop-secret-0123456789abcdef0123',
      LOG_LEVEL: 'warn',
    },
  });
  await expect
    .poll(async () => (await fetch(`${ORIGIN}/readyz`).catch(() => undefined))?.status, { timeout: 30000 })
    .toBe(200);
});

test.afterAll(async () => {
  portal?.kill('SIGINT');
  await mock?.stop();
});

test('signs in through the mock provider, prefilled form from the register, signs out at the provider (cs)', async ({
  page,
}) => {
  scenario.acr = `${LOA}substantial`;
  await page.goto(`${ORIGIN}/`);
  const choice = page.getByTestId('choice-eid');
  await expect(choice).toHaveAttribute('href', '/api/ros/sso-redirect?from=form');
  await choice.click();
  await expect(page).toHaveURL(`${ORIGIN}/form?eid=nia`);
  await expect(page.getByRole('heading', { name: 'Jste přihlášeni přes identitu občana' })).toBeVisible();
  // Štěpán's certificate is valid for long: the told-early notice comes first (issue 36).
  await passEarlyRefusal(page);
  await expect(page.locator('#first_name')).toHaveValue('Štěpán');
  await expect(page.locator('#last_name')).toHaveValue('Dvořák');
  await expect(page.locator('#birth_date')).toHaveValue('15.03.1985');
  await expect(page.locator('#first_name')).toHaveAttribute('readonly', '');
  // A sign-out or a new sign-in that does not come from the portal's own pages (here a typed
  // address: Sec-Fetch-Site none) leaves the session alone: back to the form, still signed in.
  for (const path of ['/api/ros/sso-logout', '/api/ros/sso-redirect?from=form']) {
    await page.goto(`${ORIGIN}${path}`);
    await expect(page).toHaveURL(`${ORIGIN}/form?eid=nia`);
    expect((await page.request.get(`${ORIGIN}/api/ros/sso-session`)).status()).toBe(200);
  }
  expect(endSessions).toHaveLength(0);
  // The logo (home) while signed in: the session ends here and at the provider (with the ID
  // token as hint), and the browser comes back to the home page.
  await expect(page.locator('#first_name')).toHaveValue('Štěpán');
  await page.locator('.header__brand').click();
  await expect.poll(() => endSessions.length).toBe(1);
  expect(endSessions[0]?.get('id_token_hint')?.split('.')).toHaveLength(3);
  expect(endSessions[0]?.get('post_logout_redirect_uri')).toBe(`${ORIGIN}/`);
  await expect(page).toHaveURL(`${ORIGIN}/`);
  expect((await page.request.get(`${ORIGIN}/api/ros/sso-session`)).status()).toBe(401);
});

test('leaving a signed-in form with typed input: the leave question, then the sign-out at the provider', async ({
  page,
}) => {
  scenario.acr = `${LOA}substantial`;
  const before = endSessions.length;
  await page.goto(`${ORIGIN}/`);
  await page.getByTestId('choice-eid').click();
  await expect(page).toHaveURL(`${ORIGIN}/form?eid=nia`);
  await passEarlyRefusal(page);
  await expect(page.locator('#first_name')).toHaveValue('Štěpán');
  await page.locator('#email').fill('stepan@example.cz');
  // Any browser question (beforeunload) would be a second one: fail on it.
  page.on('dialog', (d) => {
    throw new Error(`unexpected browser dialog: ${d.type()}`);
  });
  await page.locator('.header__brand').click();
  const dialog = page.getByTestId('leave-dialog');
  await expect(dialog).toBeVisible();
  // Stay keeps everything.
  await page.getByTestId('leave-stay').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('#email')).toHaveValue('stepan@example.cz');
  expect(endSessions.length).toBe(before);
  // Leave, with the keyboard: signed out here and at the provider, home page.
  await page.locator('.header__brand').click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('leave-confirm')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => endSessions.length).toBe(before + 1);
  expect(endSessions[before]?.get('id_token_hint')?.split('.')).toHaveLength(3);
  await expect(page).toHaveURL(`${ORIGIN}/`);
  expect((await page.request.get(`${ORIGIN}/api/ros/sso-session`)).status()).toBe(401);
});

test('a refused ID token (level of assurance too low) comes back with the failure alert (en)', async ({
  page,
}) => {
  scenario.acr = `${LOA}low`;
  await page.goto(`${ORIGIN}/?lang=en`);
  await page.getByTestId('choice-eid').click();
  await expect(page).toHaveURL(`${ORIGIN}/form?sso=failed&lang=en`);
  await expect(page.getByText(/Signing in with your citizen identity did not succeed/)).toBeVisible();
  expect((await page.request.get(`${ORIGIN}/api/ros/sso-session`)).status()).toBe(401);
});
