import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * The console's staff sign-in (docs/console-signin.md) end to end in Chromium, through the built
 * portal, against oauth2-mock-server: an OpenID provider nobody here wrote, standing for the
 * authority's own (RS256, HTTP Basic client authentication, the role in a claim of the ID
 * token). The portal runs with the local staff provider off and the mock as
 * ROS_CONSOLE_ISSUER, as in production.
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Its own port: the NIA interop spec's portal may still be stopping on ROS_E2E_PORT.
const PORT = Number(process.env.ROS_E2E_PORT ?? 4180) + 1;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DATA = resolve(repo, `e2e/.out/interop-console-data-${PORT}`);

/** What the provider releases for the next sign-in. */
const scenario: { role: string | string[] | undefined } = { role: 'clerk' };

let mock: OAuth2Server;
let portal: ChildProcess | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(60000);
  mock = new OAuth2Server();
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
  mock.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    // The ID token (an audience, no scope): the staff member and their role.
    if (token.payload.aud === undefined || token.payload.scope !== undefined) return;
    token.payload.sub = 'c0ffee00-1234-4abc-9def-0123456789ab';
    token.payload.name = 'Jana Referentová';
    if (scenario.role === undefined) delete token.payload.ros_role;
    else token.payload.ros_role = scenario.role;
  });
  mock.service.on('beforeUserinfo', (res: { body: Record<string, unknown> }) => {
    res.body = { sub: 'c0ffee00-1234-4abc-9def-0123456789ab', name: 'Jana Referentová' };
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
      ROS_CONSOLE: 'on',
      ROS_CONSOLE_TEST_PROVIDER: 'off',
      ROS_CONSOLE_ISSUER: mock.issuer.url ?? '',
      ROS_CONSOLE_CLIENT_ID: '7d1f0c2e-5b4a-4e3d-9c8b-a1b2c3d4e5f6',
      ROS_CONSOLE_CLIENT_SECRET: 'interop-console-secret-9f8e7d6c5b4a39281706',
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

test('a clerk signs in to the console at the independent provider, sees the queue, signs out', async ({
  page,
}) => {
  scenario.role = ['reader', 'clerk'];
  await page.goto(`${ORIGIN}/urad`);
  await expect(page).toHaveURL(`${ORIGIN}/urad/prihlaseni`);
  // The local staff provider is off: the sign-in goes to the mock, which answers at once.
  expect((await page.request.get(`${ORIGIN}/urad-test/.well-known/openid-configuration`)).status()).toBe(404);
  await page.getByRole('link', { name: 'Přihlásit se účtem úřadu' }).click();
  await expect(page).toHaveURL(`${ORIGIN}/urad`);
  await expect(page.getByText('Přihlášen(a): Jana Referentová (referent)')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Fronta žádostí' })).toBeVisible();
  await page.getByRole('button', { name: 'Odhlásit se' }).click();
  await expect(page).toHaveURL(`${ORIGIN}/urad/prihlaseni?odhlaseno=1`);
  await page.goto(`${ORIGIN}/urad`);
  await expect(page).toHaveURL(`${ORIGIN}/urad/prihlaseni`);
});

test('a staff member the provider gives no console role gets no session', async ({ page }) => {
  scenario.role = undefined;
  await page.goto(`${ORIGIN}/urad/prihlaseni`);
  await page.getByRole('link', { name: 'Přihlásit se účtem úřadu' }).click();
  await expect(page).toHaveURL(`${ORIGIN}/urad/prihlaseni?chyba=no_role`);
  await expect(page.getByRole('alert')).toContainText('Váš účet nemá v konzoli žádnou roli');
  await page.goto(`${ORIGIN}/urad`);
  await expect(page).toHaveURL(`${ORIGIN}/urad/prihlaseni`);
});
