import { checkA11y, expect, test } from './fixtures';

/**
 * The validity-check page against the real server and its demo certificates
 * (packages/server/src/demo/records.ts; the links are stable by design, see docs/validity.md).
 */
const DEMO = {
  validBoth: '990000001x2070',
  validA1a3: '990000002x2069',
  validNone: '990000003x2068',
  expired: '990000004x2040',
  revoked: '990000005x2067',
  wrongCode: '990000001x2071',
};

const TEXT = {
  cs: {
    verified: 'Doklad o spolehlivosti je platný',
    notVerified: 'Doklad o spolehlivosti se nepodařilo ověřit',
    title: 'Ověření platnosti dokladu',
    categories: 'Kategorie dokladu',
    retry: 'Zkusit znovu',
    notFound: 'Stránka nenalezena',
  },
  en: {
    verified: 'The background-check certificate is valid',
    notVerified: 'The background-check certificate could not be verified',
    title: 'validity check',
    categories: 'Certificate categories',
    retry: 'Try again',
    notFound: 'Page not found',
  },
} as const;

const DATE = /^\d{2}\.\d{2}\.\d{4}$/;

for (const lang of ['cs', 'en'] as const) {
  const t = TEXT[lang];
  const url = (id: string) => `/check?id=${id}${lang === 'en' ? '&lang=en' : ''}`;

  test.describe(`validity check (${lang})`, () => {
    test('valid certificate without categories', async ({ page }) => {
      await page.goto(url(DEMO.validNone));
      const result = page.getByTestId('validity-verified');
      await expect(result.getByRole('heading', { level: 2 })).toHaveText(t.verified);
      await expect(page.getByTestId('validity-date')).toHaveText(DATE);
      await expect(page.getByTestId('validity-issued-for')).toHaveText('Šár… Hor…');
      await expect(page.getByRole('table')).toHaveCount(0);
      // The header title is the check page's (set 200 ms after the view starts).
      await expect(page).toHaveTitle(new RegExp(t.title, 'i'));
      await checkA11y(page);
    });

    test('valid certificate with categories A1/A3 and A2', async ({ page }) => {
      await page.goto(url(DEMO.validBoth));
      await expect(page.getByTestId('validity-verified')).toBeVisible();
      const table = page.getByRole('table', { name: t.categories });
      await expect(table.getByRole('row')).toHaveCount(3);
      await expect(table.getByRole('rowheader', { name: 'A1/A3' })).toBeVisible();
      await expect(table.getByRole('rowheader', { name: 'A2' })).toBeVisible();
      const date = await page.getByTestId('validity-date').textContent();
      await expect(table.getByRole('cell')).toHaveText([date ?? '', date ?? '']);
      await expect(page.getByTestId('validity-issued-for')).toHaveText('Jiř… Dvo…');
      await checkA11y(page);

      await page.goto(url(DEMO.validA1a3));
      await expect(page.getByRole('table', { name: t.categories }).getByRole('rowheader')).toHaveText([
        'A1/A3',
      ]);
    });

    test('expired and revoked certificates are not verified', async ({ page }) => {
      for (const id of [DEMO.expired, DEMO.revoked]) {
        await page.goto(url(id));
        const result = page.getByTestId('validity-not-verified');
        await expect(result.getByRole('heading', { level: 2 })).toHaveText(t.notVerified);
        await expect(page.getByTestId('validity-date')).toHaveCount(0);
        await expect(page.getByText('Mar… Pro…')).toHaveCount(0);
      }
      await checkA11y(page);
    });

    test('a wrong code is not verified and shows no data', async ({ page }) => {
      await page.goto(url(DEMO.wrongCode));
      await expect(page.getByTestId('validity-not-verified')).toBeVisible();
      await expect(page.getByText('Jiř…')).toHaveCount(0);
      await expect(page.locator('[data-alert-key]')).toHaveCount(0);
      await checkA11y(page);
    });

    for (const bad of ['', '12x', '1x', 'x1', '1x2x3', '-1x5', '1e3x2', '١x٢']) {
      test(`bad id "${bad}" goes to not-found, keeping the language`, async ({ page }) => {
        // An empty id is malformed; no id at all shows the form (issue 36, e2e/journey.spec.ts).
        await page.goto(url(encodeURIComponent(bad)));
        await expect(page).toHaveURL(lang === 'en' ? /\/not-found\?lang=en$/ : /\/not-found$/, {
          timeout: 15000,
        });
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.notFound);
        // Headed as itself, not as the request form (issue 28), in the band and the tab.
        await expect(page.getByTestId('header-title')).toHaveText(t.notFound);
        await expect(page).toHaveTitle(new RegExp(`^${t.notFound} \\|`));
      });
    }

    test('shows the spinner while loading, in a box that keeps its height', async ({ page }) => {
      test.slow();
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/ros/*/validity', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(url(DEMO.validNone));
      const loading = page.getByTestId('validity-loading');
      await expect(loading).toHaveText(lang === 'cs' ? 'Načítání…' : 'Loading…');
      // The header title arrives 200 ms after the view starts (the shell's doing): wait for it.
      await expect(page).toHaveTitle(new RegExp(t.title, 'i'));
      const box = page.locator('.validity__box');
      const before = await box.boundingBox();
      await checkA11y(page);
      release();
      await expect(page.getByTestId('validity-verified')).toBeVisible();
      const after = await box.boundingBox();
      // The result fits the reserved box: nothing above or at its top moves.
      expect(after?.y).toBe(before?.y);
      expect(after?.height).toBe(before?.height);
    });

    for (const failure of ['network', '500'] as const) {
      test(`server down (${failure}): a warning that stays, and a retry`, async ({ page }) => {
        let down = true;
        await page.route('**/api/ros/*/validity', (route) => {
          if (!down) return route.continue();
          return failure === 'network'
            ? route.abort('connectionrefused')
            : route.fulfill({
                status: 500,
                contentType: 'application/json',
                body: '{"error":{"code":"INTERNAL_ERROR","message":"Internal server error"}}',
              });
        });
        // The page's clock is the test's: "does it close itself" needs no real wait.
        await page.clock.install();
        await page.goto(url(DEMO.validBoth));
        const alert = page.locator('[data-alert-key="ALERTS.CHECK_VALIDITY_ERROR"]');
        await expect(alert).toBeVisible();
        await expect(page.getByTestId('validity-error')).toBeVisible();
        await expect(page.getByTestId('validity-verified')).toHaveCount(0);
        await expect(page.getByTestId('validity-not-verified')).toHaveCount(0);
        await checkA11y(page);
        // It does not close itself (the default alerts close after 5 s).
        await page.clock.fastForward('00:06');
        await expect(alert).toBeVisible();
        down = false;
        await page.getByRole('button', { name: t.retry }).click();
        await expect(page.getByTestId('validity-verified')).toBeVisible();
      });
    }

    test('names the bot-check service and its policies in the footer line', async ({ page }) => {
      await page.goto(url(DEMO.validNone));
      const notice = page.getByTestId('validity-bot-check');
      await expect(notice).toContainText('ALTCHA');
      await expect(notice.getByRole('link')).toHaveCount(2);
      await expect(notice.getByRole('link').first()).toHaveAttribute(
        'href',
        'https://altcha.org/privacy-policy/',
      );
      await expect(notice.getByRole('link').last()).toHaveAttribute(
        'href',
        'https://altcha.org/terms-of-service/',
      );
    });

    test('is clear at 320 px: no sideways scrolling, a large icon', async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 640 });
      await page.goto(url(DEMO.validBoth));
      await expect(page.getByTestId('validity-verified')).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const icon = await page.locator('.validity__icon').boundingBox();
      expect(icon?.width).toBeGreaterThanOrEqual(64);
      await checkA11y(page);
    });
  });
}
