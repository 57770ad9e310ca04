import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../app.js';
import type { AppContext } from '../../context.js';
import { createTestDb, type TestDb, type TestDbKind } from '../../test/databases.js';
import { seedFormData } from '../../test/seed.js';
import { signedInStaff } from '../auth/testing.js';
import { CONSOLE_CSP } from './common.js';

/**
 * Test helpers of the console's route tests (not built: tsconfig.build.json leaves testing.ts
 * out): the app on a fresh database with the reference lists, a signed-in staff member's GET
 * and form POST through app.inject, the audit rows, and the checks every console page must
 * pass (its headers, no script, well-formed HTML, axe in jsdom).
 */

export const HOST = 'localhost:8080';
export const ORIGIN = `http://${HOST}`;

export interface ConsoleTestApp {
  t: TestDb;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The app (console on, the local staff provider) on a fresh database with the reference lists. */
export async function consoleTestApp(kind: TestDbKind): Promise<ConsoleTestApp> {
  const t = await createTestDb(kind);
  const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
  await seedFormData(ctx);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    t,
    app,
    async close() {
      await app.close();
      await t.cleanup();
    },
  };
}

export interface Session {
  subject: string;
  cookie: string;
  csrf: string;
}

/** A staff member signed in through the local provider (test-reader, test-clerk, test-admin). */
export async function session(c: ConsoleTestApp, subject: string): Promise<Session> {
  const { cookie, csrf } = await signedInStaff(c.app, c.t.db, subject);
  return { subject, cookie, csrf };
}

/** A GET of a console page, as the signed-in browser (or none) sends it. */
export function get(c: ConsoleTestApp, who: Session | null, url: string): Promise<LightMyRequestResponse> {
  return c.app.inject({
    method: 'GET',
    url,
    headers: { host: HOST, ...(who ? { cookie: who.cookie } : {}) },
  });
}

/**
 * A form of the console posted as a browser posts it from the console's page (same origin,
 * the session's CSRF token unless the form names its own `csrf`; `headers` override, undefined
 * leaves one out).
 */
export function post(
  c: ConsoleTestApp,
  who: Session | null,
  url: string,
  form: Record<string, string> = {},
  headers: Record<string, string | undefined> = {},
): Promise<LightMyRequestResponse> {
  const fields = who && !('csrf' in form) ? { csrf: who.csrf, ...form } : form;
  const all: Record<string, string | undefined> = {
    host: HOST,
    origin: ORIGIN,
    'sec-fetch-site': 'same-origin',
    'content-type': 'application/x-www-form-urlencoded',
    ...(who ? { cookie: who.cookie } : {}),
    ...headers,
  };
  return c.app.inject({
    method: 'POST',
    url,
    // A header given as undefined is not sent (a browser without Fetch Metadata).
    headers: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >,
    payload: new URLSearchParams(fields).toString(),
  });
}

export interface AuditRow {
  id: number;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  detail: string | null;
}

/** The audit rows after `after` (an id), oldest first. */
export async function auditSince(c: ConsoleTestApp, after = 0): Promise<AuditRow[]> {
  const rows = await c.t.db.kysely
    .selectFrom('audit_log')
    .select(['id', 'actor', 'action', 'target', 'outcome', 'detail'])
    .where('id', '>', after)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The newest audit row's id (0 for none): take it before a request, then auditSince(it). */
export async function lastAuditId(c: ConsoleTestApp): Promise<number> {
  const row = await c.t.db.kysely
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The document's text without its tags (what a person reads), entities of the renderer decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** What every console page carries: its header set (the CSP without anything inline) and no script. */
export function expectConsolePage(res: LightMyRequestResponse, status?: number): void {
  if (status !== undefined) expect(res.statusCode, res.body.slice(0, 400)).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toBe(CONSOLE_CSP);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|script-src/);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.body.startsWith('<!doctype html><html lang="cs">')).toBe(true);
  expect(res.body).not.toMatch(/<script|javascript:|\son[a-z]+=|style="/i);
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
/** Elements a `p` cannot hold (the parser would close the `p` before them). */
const CLOSES_P = new Set(
  'address article aside blockquote details dialog div dl fieldset figure footer form h1 h2 h3 h4 h5 h6 header hr main nav ol p pre search section table ul'.split(
    ' ',
  ),
);
const INTERACTIVE = new Set(['a', 'button', 'select', 'textarea', 'input', 'iframe', 'label']);

/**
 * What parse5 does not report (it gives the tokenizer's errors only): end tags that close no
 * open element, elements left open, and content the parser would move (a block in a `p`, a form
 * in a form, interactive content in a link or button).
 */
function treeProblems(html: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>/g)) {
    const [tag, end, rawName] = m as unknown as [string, string, string];
    const name = rawName.toLowerCase();
    if (end) {
      if (open[open.length - 1] === name) open.pop();
      else problems.push(`</${name}> closes no open element (open: ${open.slice(-3).join(' > ')})`);
      continue;
    }
    if (open.includes('p') && CLOSES_P.has(name)) problems.push(`<${name}> inside <p>`);
    if (name === 'form' && open.includes('form')) problems.push('<form> inside <form>');
    if (INTERACTIVE.has(name) && name !== 'label' && (open.includes('a') || open.includes('button')))
      problems.push(`<${name}> inside <a> or <button>`);
    if (!VOID.has(name) && !tag.endsWith('/>')) open.push(name);
    else if (!VOID.has(name)) problems.push(`<${name}/> is not a void element`);
  }
  if (open.length > 0) problems.push(`left open: ${open.join(' > ')}`);
  return problems;
}

/**
 * What a validator would say of the page's markup, short of the W3C checker (not installed):
 * the HTML tokenizer's errors (parse5, the WHATWG algorithm), the tree's (treeProblems), ids used twice, references (for,
 * aria-describedby, aria-labelledby, #fragments) to ids that do not exist, one h1, one main.
 */
export async function markupProblems(html: string): Promise<string[]> {
  const { parse } = (await import('parse5' as string)) as {
    parse(
      h: string,
      o: { onParseError(e: { code: string; startLine: number; startCol: number }): void },
    ): unknown;
  };
  const problems: string[] = [];
  parse(html, {
    onParseError: (e) => {
      problems.push(`parse error ${e.code} at ${e.startLine}:${e.startCol}`);
    },
  });
  problems.push(...treeProblems(html));
  const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1] as string);
  const idSet = new Set(ids);
  for (const id of idSet) if (ids.filter((x) => x === id).length > 1) problems.push(`id "${id}" used twice`);
  const refs = [
    ...[...html.matchAll(/\s(?:for|aria-labelledby|aria-describedby|aria-controls)="([^"]+)"/g)].flatMap(
      (m) => (m[1] as string).split(/\s+/),
    ),
    ...[...html.matchAll(/\shref="#([^"]+)"/g)].map((m) => m[1] as string),
  ];
  for (const ref of refs) if (!idSet.has(ref)) problems.push(`reference to a missing id "${ref}"`);
  if ((html.match(/<h1[ >]/g) ?? []).length !== 1) problems.push('not exactly one h1');
  if ((html.match(/<main[ >]/g) ?? []).length !== 1) problems.push('not exactly one main');
  if (!/<title>[^<]+<\/title>/.test(html)) problems.push('no title');
  return problems;
}

interface AxeResult {
  violations: Array<{ id: string; nodes: Array<{ target: unknown }> }>;
}

/**
 * axe (WCAG 2.1 A/AA and best practice, as e2e/fixtures.ts asks) in jsdom, as
 * console/auth/testProvider.test.ts runs it: what needs layout (contrast) is left to the browser tests.
 */
export async function axeViolations(html: string): Promise<string[]> {
  const { JSDOM } = (await import('jsdom' as string)) as {
    JSDOM: new (h: string, o: object) => { window: { eval(s: string): void; axe: unknown; close(): void } };
  };
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const dom = new JSDOM(html, { runScripts: 'outside-only', pretendToBeVisual: true });
  try {
    dom.window.eval(source);
    const run = dom.window.axe as { run(ctx: unknown, opts: object): Promise<AxeResult> };
    const result = await run.run((dom.window as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      rules: { 'color-contrast': { enabled: false } },
    });
    return result.violations.map((v) => `${v.id} ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  } finally {
    dom.window.close();
  }
}
