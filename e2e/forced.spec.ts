import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, fillSearch, formUrl, PEOPLE, test } from './fixtures.js';

/**
 * Forced colours (Windows high contrast; WCAG 1.4.11), through Chromium's emulation: what shows
 * a state by colour alone must stay visible when the system's colours replace the page's
 * (issue 35): the bot check's verified tick and the status timeline's completed dots. Colours
 * are read as the browser paints them (a computed colour drawn on a canvas, read back as sRGB).
 */

const SHOTS = resolve(import.meta.dirname, `.out/screens-${process.env.ROS_E2E_PORT ?? 4180}`);

/** Contrast between two computed colours of `el` (or its descendants), as painted. */
async function contrast(el: Locator, pick: string): Promise<number> {
  return el.evaluate((root, pickSource) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('no canvas');
    const rgb = (css: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = 'Canvas';
      ctx.fillRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
    };
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r ?? 0) + 0.7152 * lin(g ?? 0) + 0.0722 * lin(b ?? 0);
    };
    // The page's ground: the first opaque background from the element up, else Canvas.
    const ground = (from: Element) => {
      for (let e: Element | null = from.parentElement; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (!c.endsWith(', 0)') && c !== 'transparent') return c;
      }
      return 'Canvas';
    };
    const [a, b] = (
      new Function('root', 'ground', `return (${pickSource})(root, ground)`) as (
        r: Element,
        g: (e: Element) => string,
      ) => [string, string]
    )(root, ground);
    const [x, y] = [luminance(rgb(a)), luminance(rgb(b))];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }, pick);
}

async function shot(target: Locator, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await target.screenshot({ path: resolve(SHOTS, `forced-${name}.png`) });
}

for (const lang of ['cs', 'en'] as const) {
  test(`forced colours: the bot check's verified tick stays visible (${lang})`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto(formUrl(lang));
    await fillSearch(page, lang, PEOPLE.dvorak);
    const widget = page.getByTestId('botcheck');
    await expect(widget.locator('.altcha')).toHaveAttribute('data-state', 'verified', { timeout: 30_000 });
    const box = widget.locator('.altcha-checkbox');
    await expect(box.locator('input')).toBeChecked();
    // The ticked box stands out from the ground, and the tick from the box.
    const fill = `(root, ground) => {
      const input = root.querySelector('input');
      return [getComputedStyle(input).backgroundColor, ground(root)];
    }`;
    const tick = `(root) => {
      const input = root.querySelector('input');
      const svg = root.querySelector('svg');
      return [getComputedStyle(svg).stroke === 'currentcolor' ? getComputedStyle(svg).color : getComputedStyle(svg).stroke, getComputedStyle(input).backgroundColor];
    }`;
    // Polled: the widget draws the tick with a short transition.
    await expect.poll(() => contrast(box, fill)).toBeGreaterThanOrEqual(3);
    await expect.poll(() => contrast(box, tick)).toBeGreaterThanOrEqual(3);
    await shot(widget, `botcheck-verified-${lang}`);
  });

  test(`forced colours: the status timeline's completed dots stay visible (${lang})`, async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    // A request two steps on, as the server answers it (the look-up itself: e2e/status.spec.ts).
    await page.route('**/api/ros/status', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          reference: 'ROS-2026-000001',
          status: 'in_progress',
          channel: 'pdf',
          submitted_at: '2026-05-04T08:00:00Z',
          events: [
            { status: 'new', at: '2026-05-04T08:00:00Z', note: null },
            { status: 'received', at: '2026-05-06T08:00:00Z', note: null },
            { status: 'in_progress', at: '2026-05-07T08:00:00Z', note: null },
          ],
          certificate: null,
        }),
      }),
    );
    await page.goto(
      `${lang === 'en' ? '/request-status?lang=en' : '/stav-zadosti'}#ROS-2026-000001/ABCD-EFGH-JKMN`,
    );
    const steps = page.getByTestId('status-step');
    // Submitted, new and received done; in_progress the current one.
    const current = page.locator('[data-testid="status-step"][aria-current="step"]');
    await expect(current).toHaveCount(1);
    const dot = `(root, ground) => [getComputedStyle(root.querySelector('.status-timeline__dot')).backgroundColor, ground(root.querySelector('.status-timeline__dot'))]`;
    for (const i of [0, 1, 2])
      expect(await contrast(steps.nth(i), dot), `dot ${i}`).toBeGreaterThanOrEqual(3);
    // The current step's ring, and the line between the dots.
    const ring = `(root, ground) => [getComputedStyle(root.querySelector('.status-timeline__dot')).borderTopColor, ground(root.querySelector('.status-timeline__dot'))]`;
    expect(await contrast(current, ring)).toBeGreaterThanOrEqual(3);
    const line = `(root, ground) => [getComputedStyle(root, '::before').backgroundColor, ground(root)]`;
    expect(await contrast(steps.nth(0), line)).toBeGreaterThanOrEqual(3);
    await shot(page.getByTestId('status-timeline'), `timeline-${lang}`);
  });
}
