import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDb } from '../../test/databases.js';
import { browse, Jar, withConsoleAuth } from './testing.js';
import { errorPage, pickerPage } from './testProviderPages.js';
import { TEST_STAFF } from './testStaff.js';

/**
 * The local staff provider's pages pass axe (WCAG 2.1 A/AA and best practice, as e2e/fixtures.ts
 * asks of every screen): the document's language, one h1, every radio button labelled, a named
 * group. axe runs in jsdom here (no browser in the server tests), which leaves out what needs
 * layout (colour contrast); the page's colours are /nia-test's, checked there in Chromium.
 */

interface AxeResult {
  violations: Array<{ id: string; nodes: unknown[] }>;
}

async function axe(html: string): Promise<AxeResult> {
  // jsdom is the web project's (devDependency, no types here); axe-core ships its source.
  const { JSDOM } = (await import('jsdom' as string)) as {
    JSDOM: new (h: string, o: object) => { window: { eval(s: string): void; axe: unknown; close(): void } };
  };
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const dom = new JSDOM(html, { runScripts: 'outside-only', pretendToBeVisual: true });
  try {
    dom.window.eval(source);
    const run = dom.window.axe as {
      run(ctx: unknown, opts: object): Promise<AxeResult>;
    };
    return await run.run((dom.window as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      rules: { 'color-contrast': { enabled: false } },
    });
  } finally {
    dom.window.close();
  }
}

describe('the local staff provider', () => {
  it('offers the four test staff with stable subjects on a page that passes axe', async () => {
    const html = pickerPage('uid-123');
    for (const s of TEST_STAFF) expect(html).toContain(`value="${s.subject}"`);
    expect(TEST_STAFF.map((s) => [s.subject, s.name, s.role])).toEqual([
      ['test-reader', 'Alena Čtenářová', 'reader'],
      ['test-clerk', 'Karel Úředník', 'clerk'],
      ['test-admin', 'Marie Správcová', ['clerk', 'admin']],
      ['test-norole', 'Petr Bezrole', null],
    ]);
    expect(html).toContain('<html lang="cs">');
    // The check sees what it is for: a page without a language, heading and labels fails it.
    const bare = await axe(
      '<!doctype html><html><head><title>x</title></head><body><input type="radio" name="s"></body></html>',
    );
    expect(bare.violations.map((v) => v.id)).toEqual(
      expect.arrayContaining(['html-has-lang', 'label', 'region']),
    );
    // One h1 (axe in jsdom does not judge page-has-heading-one).
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect((await axe(html)).violations.map((v) => v.id)).toEqual([]);
    expect((await axe(errorPage('Přihlášení vypršelo'))).violations.map((v) => v.id)).toEqual([]);
  });

  it('serves its discovery under /urad-test and the picker for a sign-in under way', async () => {
    const t = await createTestDb('sqlite');
    const ctx = { config: t.config, db: t.db, version: 'test' };
    const app = await buildApp(ctx);
    try {
      await withConsoleAuth(app, ctx);
      // Once app.ts registers the routes itself, the helper does nothing.
      await withConsoleAuth(app, ctx);
      const d = (await app.inject('/urad-test/.well-known/openid-configuration')).json() as Record<
        string,
        unknown
      >;
      expect(d.issuer).toBe('http://localhost:8080/urad-test');
      expect(d.code_challenge_methods_supported).toEqual(['S256']);
      expect(d.claims_supported).toEqual(expect.arrayContaining(['sub', 'name', 'ros_role']));
      const jar = new Jar();
      const start = await browse(app, jar, '/urad/prihlaseni/zahajit');
      let res = await browse(app, jar, String(start.headers.location));
      while (res.statusCode === 303 || res.statusCode === 302)
        res = await browse(app, jar, String(res.headers.location));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect((await axe(res.body)).violations.map((v) => v.id)).toEqual([]);
      // An unknown interaction: the error page, not a stack trace.
      const gone = await browse(app, new Jar(), '/urad-test/interaction/nothing-here');
      expect(gone.statusCode).toBe(400);
      expect(gone.body).toContain('<h1>Chyba');
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});
