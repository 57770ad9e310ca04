/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { HEADER_TITLE_DELAY_MS } from '@ros/domain';
import { checkA11y, expect, test } from './fixtures.js';

const CONSENT_KEY = 'ros-cookie-consent';

const TEXTS = {
  cs: {
    homeH1: 'Jak chcete žádost podat?',
    duplicateH1: 'Jak chcete žádost o duplikát podat?',
    notFoundH1: 'Stránka nenalezena',
    title: 'Žádost o vydání dokladu o spolehlivosti',
    duplicateTitle: 'Žádost o vydání duplikátu dokladu o spolehlivosti',
    switchTo: 'English',
    cookieRegion: 'Cookies na této stránce',
    acceptAll: 'Přijmout vše',
    necessary: 'Jen nezbytné',
  },
  en: {
    homeH1: 'How do you want to apply?',
    duplicateH1: 'How do you want to apply for a duplicate?',
    notFoundH1: 'Page not found',
    title: 'Request for a background-check certificate',
    duplicateTitle: 'Request for a duplicate background-check certificate',
    switchTo: 'Čeština',
    cookieRegion: 'Cookies on this site',
    acceptAll: 'Accept all',
    necessary: 'Necessary only',
  },
} as const;

type Lang = keyof typeof TEXTS;
const q = (lang: Lang) => (lang === 'en' ? '?lang=en' : '');

async function expectHeaderTitle(page: Page, text: string) {
  await expect(page.getByTestId('header-title')).toHaveText(text);
}

test.describe('routes', () => {
  test.describe.configure({ timeout: 60_000 });
  for (const lang of ['cs', 'en'] as const) {
    const t = TEXTS[lang];

    test(`${lang}: home, both duplicate paths and not-found`, async ({ page }) => {
      await page.goto(`/${q(lang)}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.homeH1);
      await expectHeaderTitle(page, t.title);
      await expect(page).toHaveTitle(new RegExp(`^${t.title}`));

      for (const path of ['/duplikat', '/duplicate']) {
        await page.goto(`${path}${q(lang)}`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.duplicateH1);
        await expectHeaderTitle(page, t.duplicateTitle);
      }

      await page.goto(`/not-found${q(lang)}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.notFoundH1);
    });

    test(`${lang}: a page path in other case goes to its own path, query kept; status and page agree (issue 22)`, async ({
      page,
    }) => {
      const sep = lang === 'en' ? '&lang=en' : '';
      for (const [from, to, h1OrTitle] of [
        [`/Check?id=990000001x2070${sep}`, `/check?id=990000001x2070${sep}`, null],
        [`/FORM${q(lang)}`, `/form${q(lang)}`, t.title],
        [`/Duplicate/Form${q(lang)}`, `/duplicate/form${q(lang)}`, t.duplicateTitle],
      ] as const) {
        // The server answers the path written otherwise with a redirect to the page's own path.
        const direct = await page.request.get(from, { maxRedirects: 0 });
        expect(direct.status(), from).toBe(301);
        expect(direct.headers().location, from).toBe(to);
        const response = await page.goto(from);
        expect(response?.status(), from).toBe(200);
        await expect(page).toHaveURL(new RegExp(`${to.replace(/[?]/g, '\\?')}$`));
        if (h1OrTitle) await expectHeaderTitle(page, h1OrTitle);
        else await expect(page.getByTestId('validity-verified')).toBeVisible();
      }
      // A path the server answers 404 for never shows a page (react-router would match it).
      const encoded = await page.goto(`/f%6Frm${q(lang)}`);
      expect(encoded?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.notFoundH1);
    });

    test(`${lang}: an unknown path redirects to not-found and keeps the language`, async ({ page }) => {
      await page.goto(`/some/unknown/page${q(lang)}`);
      await expect(page).toHaveURL(new RegExp(`/not-found${lang === 'en' ? '\\?lang=en' : ''}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.notFoundH1);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      // The way back home keeps the language too.
      await page.getByRole('main').getByRole('link').last().click();
      await expect(page).toHaveURL(new RegExp(`/${lang === 'en' ? '\\?lang=en' : ''}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.homeH1);
    });
  }

  test('the basic choice opens the (duplicate) form keeping the language', async ({ page }) => {
    test.slow();
    await page.goto('/duplicate?lang=en');
    await page.getByTestId('choice-basic').click();
    await expect(page).toHaveURL(/\/duplicate\/form\?lang=en$/);
    await page.goto('/');
    await page.getByTestId('choice-basic').click();
    await expect(page).toHaveURL(/\/form$/);
  });
});

test.describe('language switch', () => {
  test('switches the same route between Czech and English and sets <html lang>', async ({ page }) => {
    await page.goto('/duplikat');
    await expect(page.locator('html')).toHaveAttribute('lang', 'cs');
    const toEnglish = page.getByRole('link', { name: 'English' });
    await expect(toEnglish).toHaveAttribute('lang', 'en');
    await toEnglish.click();
    await expect(page).toHaveURL(/\/duplikat\?lang=en$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.en.duplicateH1);
    await expectHeaderTitle(page, TEXTS.en.duplicateTitle);
    // The language stays through in-app navigation.
    await page.getByRole('link', { name: /standard request/ }).click();
    await expect(page).toHaveURL(/\/\?lang=en$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.en.homeH1);
    await page.getByRole('link', { name: 'Čeština' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'cs');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.cs.homeH1);
  });
});

test.describe('header title timing', () => {
  test('the header title appears 200 ms after the view (on the page’s clock, paused)', async ({ page }) => {
    // The page's timers run on Playwright's clock, paused before the page loads, and moved by hand:
    // exact on any machine. Until the view is there only the timers due now run (the start-up's
    // zero-delay ones); the clock stands still, so the title's timer starts at the paused time.
    await page.clock.install({ time: new Date('2026-11-27T08:00:00Z') });
    await page.clock.pauseAt(new Date('2026-11-27T08:00:01Z'));
    await page.goto('/');
    const view = page.locator('main h1');
    await expect
      .poll(async () => {
        await page.clock.runFor(0);
        return view.count();
      })
      .toBe(1);
    await expect(view).toHaveText(TEXTS.cs.homeH1);
    const title = page.getByTestId('header-title');
    await expect(title).toHaveText('');
    await page.clock.runFor(HEADER_TITLE_DELAY_MS - 1);
    // A few rounds of the page's own task queue (React renders there, not on a timer): a title
    // set by then would be on the page now.
    await page.evaluate(async () => {
      for (let round = 0; round < 5; round++) {
        await new Promise<void>((done) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => done();
          channel.port2.postMessage(null);
        });
      }
    });
    await expect(title).toHaveText('');
    await page.clock.runFor(1);
    await expectHeaderTitle(page, TEXTS.cs.title);
  });
});

test.describe('cookie bar', () => {
  for (const lang of ['cs', 'en'] as const) {
    for (const button of ['acceptAll', 'necessary'] as const) {
      test(`${lang}: "${TEXTS[lang][button]}" stores consent and survives a reload`, async ({ page }) => {
        await page.goto(`/${q(lang)}`);
        const bar = page.getByRole('region', { name: TEXTS[lang].cookieRegion });
        await expect(bar).toBeVisible();
        await bar.getByRole('button', { name: TEXTS[lang][button] }).click();
        await expect(bar).toHaveCount(0);
        expect(await page.evaluate((key) => localStorage.getItem(key), CONSENT_KEY)).toBe('true');
        await page.reload();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS[lang].homeH1);
        await expect(page.getByRole('region', { name: TEXTS[lang].cookieRegion })).toHaveCount(0);
      });
    }
  }

  test('is reached by keyboard right after the skip link', async ({ page }) => {
    await page.goto('/?lang=en');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Accept all' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Cookies on this site' })).toHaveCount(0);
  });
});

test.describe('skip link', () => {
  test('moves focus to the main content', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.locator('#main-content')).toBeFocused();
  });
});

test.describe('footer', () => {
  test('shows the current year, the version from metadata and the links', async ({ page, request }) => {
    const metadata = (await (await request.get('/api/ros/metadata')).json()) as { version: string };
    expect(metadata.version).not.toBe('');
    for (const lang of ['cs', 'en'] as const) {
      await page.goto(`/${q(lang)}`);
      const footer = page.getByRole('contentinfo');
      await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
      await expect(footer.getByTestId('footer-version')).toContainText(metadata.version);
      await expect(footer.getByRole('link', { name: 'ros@caa.gov.cz' })).toHaveAttribute(
        'href',
        'mailto:ros@caa.gov.cz',
      );
      const hrefs = await footer
        .getByRole('navigation')
        .getByRole('link')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      expect(hrefs).toHaveLength(4);
      expect(hrefs.filter((href) => href.startsWith('https://www.caa.gov.cz/'))).toHaveLength(3);
    }
  });
});

test.describe('sign-in choice', () => {
  const cases = [
    { path: '/', from: 'form' },
    { path: '/?lang=en', from: 'form-en' },
    { path: '/duplikat', from: 'duplicate' },
    { path: '/duplicate?lang=en', from: 'duplicate-en' },
  ];
  for (const { path, from } of cases) {
    test(`${path} navigates the browser to sso-redirect?from=${from}`, async ({ page }) => {
      // Stop the navigation at our server's redirect path: the NIA side is tested elsewhere.
      await page.route('**/api/ros/sso-redirect**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>NIA</title>' }),
      );
      await page.goto(path);
      const navigation = page.waitForRequest((req) => req.url().includes('/api/ros/sso-redirect'));
      await page.getByTestId('choice-eid').click();
      const req = await navigation;
      expect(req.isNavigationRequest()).toBe(true);
      const url = new URL(req.url());
      expect(url.pathname).toBe('/api/ros/sso-redirect');
      expect(url.searchParams.get('from')).toBe(from);
    });
  }

  test('with use_eid NO it opens the form with eid=eid instead', async ({ page }) => {
    // The server's setting (ROS_USE_EID=NO) as the page reads it.
    await page.route('**/api/ros/metadata', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), use_eid: 'NO' } });
    });
    await page.goto('/duplicate?lang=en');
    await expect(page.getByTestId('choice-eid')).toHaveAttribute('href', '/duplicate/form?eid=eid&lang=en');
    await page.getByTestId('choice-eid').click();
    await expect(page).toHaveURL(/\/duplicate\/form\?eid=eid&lang=en$/);
  });
});

test.describe('start-up failure', () => {
  test('a failed metadata load shows an error screen with a working retry', async ({ page }) => {
    let fail = true;
    await page.route('**/api/ros/metadata', (route) => (fail ? route.abort('failed') : route.fallback()));
    await page.goto('/?lang=en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The service could not start');
    await expect(page.getByRole('banner')).toBeVisible();
    await checkA11y(page);
    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.en.homeH1);
  });
});

test.describe('accessibility', () => {
  // axe on a whole page is slow on a busy machine: give it room.
  test.describe.configure({ timeout: 90_000 });

  for (const lang of ['cs', 'en'] as const) {
    for (const [name, path, h1] of [
      ['home', '/', TEXTS[lang].homeH1],
      ['duplicate home', '/duplikat', TEXTS[lang].duplicateH1],
      ['not-found', '/not-found', TEXTS[lang].notFoundH1],
    ] as const) {
      for (const consent of [false, true]) {
        test(`${lang}: ${name} ${consent ? 'after cookie consent' : 'with the cookie bar'} has no axe violations`, async ({
          page,
        }) => {
          if (consent) await page.addInitScript((key) => localStorage.setItem(key, 'true'), CONSENT_KEY);
          await page.goto(`${path}${q(lang)}`);
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
          await expect(page.getByTestId('header-title')).not.toBeEmpty();
          await expect(page.getByRole('region', { name: TEXTS[lang].cookieRegion })).toHaveCount(
            consent ? 0 : 1,
          );
          await checkA11y(page);
        });
      }
    }
  }

  test('is usable at 320 px without horizontal scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    for (const path of ['/', '/duplicate?lang=en', '/not-found']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  });
});
