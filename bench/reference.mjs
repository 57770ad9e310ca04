/**
 * A fixed reference workload of the app's kind, timed on the host (issue 37, the "reference"
 * calibration of bench/calibration.mjs). Lighthouse's benchmark index is a half-second loop of
 * string building and array copying. On the 2-vCPU VMs of this project it moved 1,437-2,857
 * within half a minute on one quiet host, while the host's work on a page stayed within -20% and
 * +30% of its median and did not follow the index (bench/README, 2026-12-04). This workload does
 * what a page load of the app does, in the same Chromium: parsing a stylesheet, building and
 * checking a request's data (JSON, regular expressions), filling texts in, and adding a form's
 * sections to the document one at a time with the style and layout of each. It never changes
 * with the app (it is not the app), so its time on a host says how fast that host is at this kind
 * of work, and a phone's time for it is a constant.
 *
 * `referenceWorkload` runs inside the page (it is serialised: no closure over this module).
 */

/** The workload, run in a blank page: answers its time in ms and a checksum of what it computed. */
export function referenceWorkload() {
  const t0 = performance.now();
  // A stylesheet of the design system's kind: tokens, classes, descendant and state selectors.
  const css = [':root{--gap:16px;--ink:#1a1a1a;--line:#686868;--focus:#ffbf47}'];
  for (let i = 0; i < 160; i++) {
    css.push(
      `.c${i}{margin:${i % 7}px 0;padding:calc(var(--gap) / ${1 + (i % 4)});color:var(--ink)}`,
      `.card .c${i} > label{font-weight:${i % 2 ? 700 : 400};line-height:1.${i % 9}}`,
      `.c${i}:focus-visible{outline:3px solid var(--focus)}`,
    );
  }
  css.push(
    'main{max-width:40rem;margin:0 auto;font:16px/1.5 sans-serif}',
    '.card{border:1px solid var(--line);padding:var(--gap);margin-bottom:var(--gap)}',
    '.field{display:flex;flex-direction:column;gap:4px;margin-bottom:12px}',
    '.hint{color:#555;font-size:14px;margin:0}',
    '.input{border:2px solid var(--ink);padding:8px;min-height:44px;width:100%;box-sizing:border-box}',
  );
  const style = document.createElement('style');
  style.textContent = css.join('\n');
  document.head.append(style);

  // A request's data: 400 rows, through JSON 30 times, each field checked 60 times.
  const rows = [];
  for (let i = 0; i < 400; i++) {
    rows.push({
      id: i,
      name: `Jméno Příjmení ${i}`,
      street: `Ulice ${i % 37} ${i}`,
      email: `osoba${i}@example.cz`,
      from: `20${10 + (i % 15)}-0${1 + (i % 9)}`,
      note: 'x'.repeat(i % 50),
    });
  }
  const json = JSON.stringify(rows);
  let parsed = [];
  for (let k = 0; k < 30; k++) parsed = JSON.parse(json);
  const email = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
  const month = /^\d{4}-(0[1-9]|1[0-2])$/;
  let checked = 0;
  for (let k = 0; k < 60; k++) {
    for (const r of parsed) {
      if (email.test(r.email)) checked++;
      if (month.test(r.from)) checked++;
    }
  }

  // Texts filled in, as a translation library does: 2,000 keys, 15 times.
  const texts = {};
  for (let i = 0; i < 2000; i++) texts[`KEY.${i}`] = `Text {{n}} číslo ${i} s {{what}}`;
  let written = 0;
  for (let k = 0; k < 15; k++) {
    for (const key of Object.keys(texts)) {
      written += texts[key].replace(/\{\{(\w+)\}\}/g, (_, v) => (v === 'n' ? String(k) : 'slovy')).length;
    }
  }

  // A form's 24 sections of eleven fields, each added and then laid out (a commit and a frame).
  const main = document.createElement('main');
  document.body.append(main);
  for (let s = 0; s < 24; s++) {
    const section = document.createElement('section');
    section.className = 'card';
    const heading = document.createElement('h2');
    heading.textContent = `Oddíl ${s + 1}`;
    section.append(heading);
    for (let f = 0; f < 11; f++) {
      const field = document.createElement('div');
      field.className = `field c${(s * 11 + f) % 160}`;
      const label = document.createElement('label');
      label.htmlFor = `f${s}-${f}`;
      label.textContent = `Pole číslo ${f + 1} oddílu ${s + 1}`;
      const hint = document.createElement('p');
      hint.className = 'hint';
      hint.textContent = 'Nápověda k poli, která se na úzké obrazovce telefonu zalomí na více řádků.';
      const input = document.createElement(f % 4 === 3 ? 'select' : 'input');
      input.id = `f${s}-${f}`;
      input.className = 'input';
      if (f % 4 === 3) {
        for (let o = 0; o < 20; o++) {
          const option = document.createElement('option');
          option.textContent = `Volba ${o + 1}`;
          input.append(option);
        }
      }
      field.append(label, hint, input);
      section.append(field);
    }
    main.append(section);
    checked += main.offsetHeight > 0 ? 1 : 0;
  }
  const ms = performance.now() - t0;
  main.remove();
  style.remove();
  return { ms, check: checked + written };
}

/**
 * The host's times for the workload: `runs` of them, each in a fresh blank document of `page` (a
 * puppeteer page), after one run to warm the browser up (compiled code, fonts).
 */
export async function referenceTimes(page, runs = 7) {
  const source = `(${referenceWorkload.toString()})()`;
  const times = [];
  for (let i = 0; i <= runs; i++) {
    await page.goto('about:blank');
    const { ms } = await page.evaluate(source);
    if (i > 0) times.push(ms);
  }
  return times;
}
