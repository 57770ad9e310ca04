import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures.js';

const dist = fileURLToPath(new URL('../packages/web/dist/', import.meta.url));

/**
 * What a page loads, and when (issue 14, bench/README.md): the bot-check widget of the search
 * step waits for the user's first input; scripts go out as the build's brotli files.
 */

test('the search step loads the bot-check widget at the first input, not with the page', async ({ page }) => {
  const altcha: string[] = [];
  page.on('request', (r) => {
    if (/altcha/.test(r.url())) altcha.push(r.url());
  });
  await page.goto('/form');
  await expect(page.getByTestId('search-submit')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(altcha).toEqual([]);
  // The space it will take is kept: nothing moves when it arrives.
  const box = page.getByTestId('botcheck');
  const before = await box.boundingBox();

  await page.getByLabel('Jméno', { exact: true }).focus();
  await expect(page.locator('altcha-widget input[type="checkbox"]')).toBeChecked({ timeout: 30_000 });
  expect(altcha.some((u) => /\/assets\/altcha-.*\.js$/.test(u))).toBe(true);
  expect(altcha.some((u) => u.includes('/api/ros/altcha-challenge'))).toBe(true);
  expect((await box.boundingBox())?.height).toBe(before?.height);
});

test("the pages' scripts arrive as the build's brotli files (quality 11), not compressed per request", async ({
  page,
}) => {
  const answers = new Map<string, Record<string, string>>();
  page.on('response', async (r) => {
    if (/\/assets\/.*\.js$/.test(r.url())) answers.set(r.url(), await r.allHeaders());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Files under 1 kB have no .br and go as they are.
  const big = [...answers].filter(([u]) => !/rolldown-runtime/.test(u));
  expect(big.length).toBeGreaterThan(0);
  for (const [url, headers] of big) {
    expect(headers['content-encoding'], url).toBe('br');
    const file = new URL(url).pathname.slice(1);
    expect(Number(headers['content-length']), url).toBe(statSync(`${dist}${file}.br`).size);
  }
});

test('a page announces its texts and the metadata with itself, and the app uses those answers', async ({
  page,
}) => {
  for (const [path, lang, chunk] of [
    ['/check?lang=en', 'en', 'ValidityPage'],
    ['/form', 'cs', 'FormPage'],
    ['/stav-zadosti', 'cs', 'StatusPage'],
  ] as const) {
    const asked: string[] = [];
    const chunks: string[] = [];
    const warnings: string[] = [];
    const listen = (r: { url(): string }) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/assets/i18n/') || pathname === '/api/ros/metadata') asked.push(pathname);
      if (pathname.startsWith(`/assets/${chunk}-`)) chunks.push(pathname);
    };
    const log = (m: { type(): string; text(): string }) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
    };
    page.on('request', listen);
    page.on('console', log);
    const answer = await page.goto(path);
    const link = answer?.headers().link ?? '';
    expect(link).toContain(
      `</assets/i18n/${lang}.json>; rel=preload; as=fetch; crossorigin, </api/ros/metadata>; rel=preload; as=fetch; crossorigin, `,
    );
    // The page's own chunk and its stylesheet (issue 29), each fetched once: the preloads are used.
    expect(link).toMatch(new RegExp(`</assets/${chunk}-[\\w-]+\\.js>; rel=modulepreload`));
    expect(link).toMatch(new RegExp(`</assets/${chunk}-[\\w-]+\\.css>; rel=preload; as=style; crossorigin`));
    // The first paint waits for both answers (main.tsx loads the texts and the metadata before
    // it renders): once the heading shows, the app has used them. A fetch that did not match its
    // preload would have been a second request, seen by now (no fixed wait for Chromium's
    // "preloaded but not used" warning, which a busy machine could delay past any wait).
    await expect(page.locator('h1').first()).toBeVisible();
    expect(asked.sort()).toEqual(['/api/ros/metadata', `/assets/i18n/${lang}.json`]);
    expect(chunks.filter((c) => c.endsWith('.js'))).toHaveLength(1);
    expect(chunks.filter((c) => c.endsWith('.css'))).toHaveLength(1);
    expect(warnings.filter((w) => /preload/i.test(w))).toEqual([]);
    page.off('request', listen);
    page.off('console', log);
  }
});

test("a page opened at its address paints itself first, not the shell's spinner (issue 29)", async ({
  page,
}) => {
  // What #root held at the first commit: React writes the whole tree at once, so the observer's
  // first call sees all of the first paint.
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      const root = document.getElementById('root');
      if (!root?.firstChild) return;
      seen.disconnect();
      (window as unknown as { firstPaint: string }).firstPaint = root.querySelector('main')?.innerHTML ?? '';
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  for (const [path, own] of [
    ['/stav-zadosti', 'id="status-reference"'],
    ['/form', 'data-testid="search-submit"'],
    ['/check?id=990000001x2070', 'id="validity-heading"'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    const first = await page.evaluate(() => (window as unknown as { firstPaint?: string }).firstPaint ?? '');
    expect(first, path).not.toContain('Načítám...');
    expect(first, path).toContain(own);
  }
});
