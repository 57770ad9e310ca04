import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/**
 * @guidepup/virtual-screen-reader (a screen reader's reading model in JavaScript: what it would
 * say, from the DOM and ARIA, including live regions as they change and focus as it moves), run
 * inside the page in Chromium from its bundled browser build. The spec that uses it must set
 * `test.use({ bypassCSP: true })`: the portal's CSP rightly refuses an inline script.
 */
const require = createRequire(import.meta.url);
let source: string | undefined;

async function bundle(): Promise<string> {
  if (source) return source;
  const text = await readFile(require.resolve('@guidepup/virtual-screen-reader/browser.js'), 'utf8');
  // The build is an ES module ending in `export{… as Virtual,… as virtual}`: as a classic script
  // it hands the instance to the page instead.
  const out = text.replace(
    /export\s*\{\s*[\w$]+ as Virtual\s*,\s*([\w$]+) as virtual\s*\}\s*;?/,
    'window.__vsr=$1;',
  );
  if (out === text) throw new Error('virtual-screen-reader: the browser build changed its exports');
  source = out;
  return out;
}

/** Starts the virtual screen reader on the page as it is now (call again after a navigation). */
export async function startScreenReader(page: Page): Promise<void> {
  await page.addScriptTag({ content: await bundle() });
  await page.evaluate(() =>
    (window as unknown as { __vsr: { start: (o: object) => Promise<void> } }).__vsr.start({
      container: document.body,
    }),
  );
}

/** Everything it has said since it started (or since `clearSpoken`). */
export async function spoken(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { __vsr: { spokenPhraseLog: () => Promise<string[]> } }).__vsr.spokenPhraseLog(),
  );
}

export async function clearSpoken(page: Page): Promise<void> {
  await page.evaluate(() =>
    (
      window as unknown as { __vsr: { clearSpokenPhraseLog: () => Promise<void> } }
    ).__vsr.clearSpokenPhraseLog(),
  );
}

/** How many phrases said contain `words`. */
export async function timesSaid(page: Page, words: string): Promise<number> {
  return (await spoken(page)).filter((p) => p.includes(words)).length;
}
