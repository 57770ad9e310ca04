import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect, type Page, type Request } from '@playwright/test';

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

/**
 * The page's calls under way (fetch and XHR, since the reader was first started on it): what
 * brings a message. Not scripts: a worker's (the bot check's) is never finished when the worker
 * is ended first.
 */
const inFlight = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page): void {
  if (inFlight.has(page)) return;
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (r) => {
    if (r.resourceType() === 'fetch' || r.resourceType() === 'xhr') open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/** The test's own polite region (see `settled`), put in empty before the reader starts. */
const MARK_ID = 'e2e-settle-mark';

/** Starts the virtual screen reader on the page as it is now (call again after a navigation). */
export async function startScreenReader(page: Page): Promise<void> {
  trackRequests(page);
  await page.addScriptTag({ content: await bundle() });
  await page.evaluate((id) => {
    const mark = document.createElement('div');
    mark.id = id;
    mark.setAttribute('role', 'status');
    // Out of sight (it must not cover what a test looks at), still in the accessibility tree.
    mark.style.cssText =
      'position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap';
    document.body.append(mark);
    return (window as unknown as { __vsr: { start: (o: object) => Promise<void> } }).__vsr.start({
      container: document.body,
    });
  }, MARK_ID);
}

let marks = 0;

/** Puts a word of the test's own into its polite region and waits until the reader has said it. */
async function sayMark(page: Page): Promise<string> {
  marks += 1;
  // The full stop ends the number: mark 1 is not found in mark 10.
  const word = `e2e settle mark ${marks}.`;
  await page.evaluate(
    ([id, text]) => {
      const mark = document.getElementById(id);
      if (!mark) throw new Error('startScreenReader first');
      mark.textContent = text;
    },
    [MARK_ID, word] as const,
  );
  await expect.poll(async () => (await spoken(page)).some((p) => p.includes(word))).toBe(true);
  return word;
}

/**
 * What has been said once the page is settled, without a fixed wait: no call of the page under
 * way, two animation frames drawn (React's commits and effects run by then), then a word of the
 * test's own said through its region; that is repeated until nothing but that word was said in
 * between (a message said a second time a moment after the first lands before the next word).
 * The test's words are left out of the log returned.
 */
export async function settled(page: Page): Promise<string[]> {
  const quiet = async () => {
    await expect
      .poll(() => [...(inFlight.get(page) ?? [])].map((r) => `${r.method()} ${r.url()}`))
      .toEqual([]);
    await page.evaluate(
      () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
    );
  };
  await quiet();
  let before = await sayMark(page);
  await expect
    .poll(
      async () => {
        await quiet();
        const word = await sayMark(page);
        const log = await spoken(page);
        const between = log.slice(
          log.findIndex((p) => p.includes(before)) + 1,
          log.findIndex((p) => p.includes(word)),
        );
        before = word;
        return between;
      },
      { message: "the reader still says something new between two of the test's words", intervals: [0] },
    )
    .toEqual([]);
  return (await spoken(page)).filter((p) => !p.includes('e2e settle mark'));
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
