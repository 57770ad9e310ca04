import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

export * from './steps.js';
export { expect, test };

/** axe-core with the rules we hold every screen to: WCAG 2.1 A and AA, plus best practice. */
export async function checkA11y(
  page: Page,
  options: { include?: string; exclude?: string[] } = {},
): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags([
    'wcag2a',
    'wcag2aa',
    'wcag21a',
    'wcag21aa',
    'best-practice',
  ]);
  if (options.include) builder = builder.include(options.include);
  for (const sel of options.exclude ?? []) builder = builder.exclude(sel);
  // A colour still on its way (the buttons' 150 ms transitions, e.g. a button enabled again or
  // left by the pointer just before) is measured mid-way by axe's contrast rule: wait until every
  // finite animation of the page has ended (spinners run for ever and are left alone).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const results = await builder.analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}
