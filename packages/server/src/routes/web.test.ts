import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib, { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { createTestDb, type TestDb } from '../test/databases.js';

/**
 * The web app's files as the build leaves them (packages/web/vite-plugin-precompress.ts): each
 * asset with a `.br` and a `.gz` beside it, sent as they are to a browser that accepts them
 * (issue 14: what is on the wire is brotli, and the server does not compress assets per request).
 */

const ASSET = 'assets/index-AbCdEf12.js';
// Big enough to be worth compressing. The precompressed files are not what on-the-fly compression
// would make (other settings: brotli quality 11, gzip level 1), so the test can tell which was sent.
const SOURCE = Buffer.from(`${'export const words = ["Žďár nad Sázavou", "Praha", "Brno"];\n'.repeat(200)}`);
const BR = brotliCompressSync(SOURCE);
const GZ = gzipSync(SOURCE, { level: 1 });

function webDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ros-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  writeFileSync(join(dir, ASSET), SOURCE);
  writeFileSync(join(dir, `${ASSET}.br`), BR);
  writeFileSync(join(dir, `${ASSET}.gz`), GZ);
  // As packages/web/vite-plugin-page-assets.ts writes it; the last two names are not the build's.
  writeFileSync(
    join(dir, 'page-assets.json'),
    JSON.stringify({
      '/stav-zadosti': ['assets/StatusPage-Ab12Cd34.css', 'assets/StatusPage-Ef56Gh78.js'],
      '/check': ['assets/ValidityPage-Ij90Kl12.js', 'https://elsewhere.example/x.js', '../secret.js'],
    }),
  );
  return dir;
}

describe('web app files (routes/web.ts)', () => {
  let t: TestDb;
  let app: FastifyInstance;
  let dir: string;
  beforeAll(async () => {
    dir = webDir();
    t = await createTestDb('sqlite', { ROS_WEB_DIR: dir });
    app = await buildApp({ config: t.config, db: t.db, version: 'test' });
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (encoding?: string) =>
    app.inject({
      method: 'GET',
      url: `/${ASSET}`,
      headers: encoding ? { 'accept-encoding': encoding } : {},
    });

  it("sends the build's brotli file to a browser that accepts br (Chromium's header), the same bytes inside", async () => {
    const res = await get('gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.equals(BR)).toBe(true);
    expect(brotliDecompressSync(res.rawPayload).equals(SOURCE)).toBe(true);
  });

  it('sends the gzip file when br is not accepted, and the file itself when nothing is', async () => {
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(GZ)).toBe(true);
    expect(gunzipSync(gz.rawPayload).equals(SOURCE)).toBe(true);
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(SOURCE)).toBe(true);
  });

  it('compresses nothing per request: deflate gets the file as it is (issue 33 item 2)', async () => {
    // Not a precompressed file: before, @fastify/compress deflated it on every call.
    const spies = [
      vi.spyOn(zlib, 'createDeflate'),
      vi.spyOn(zlib, 'createGzip'),
      vi.spyOn(zlib, 'createBrotliCompress'),
    ];
    try {
      for (const encoding of ['deflate', 'br;q=0, gzip;q=0, deflate']) {
        const res = await get(encoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.rawPayload.equals(SOURCE)).toBe(true);
      }
      const page = await app.inject({
        method: 'GET',
        url: '/form',
        headers: { 'accept-encoding': 'deflate' },
      });
      expect(page.headers['content-encoding']).toBeUndefined();
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('pages still get index.html with the page headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/form', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    // The form is not stored (issue 28: no back/forward cache of a success page); other pages revalidate.
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await app.inject({ method: 'GET', url: '/check' })).headers['cache-control']).toBe('no-cache');
    expect(String(res.headers['content-security-policy'])).toContain("object-src 'none'");
    // Agrees with CSP frame-ancestors 'none' (issue 24: SAMEORIGIN contradicted it).
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['permissions-policy']).toContain('camera=()');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it("a page announces its language's texts and the metadata for preloading (issue 14)", async () => {
    const link = (lang: string) =>
      `</assets/i18n/${lang}.json>; rel=preload; as=fetch; crossorigin, </api/ros/metadata>; rel=preload; as=fetch; crossorigin`;
    // (Pages without a chunk of their own in this build's page-assets.json: only these two.)
    expect((await app.inject({ method: 'GET', url: '/form' })).headers.link).toBe(link('cs'));
    expect((await app.inject({ method: 'GET', url: '/duplicate?lang=en&x=1' })).headers.link).toBe(
      link('en'),
    );
    expect((await app.inject({ method: 'GET', url: '/no-such-page?lang=de' })).headers.link).toBe(link('cs'));
    // Assets do not.
    expect((await get('br')).headers.link).toBeUndefined();
  });

  it('a page with a chunk of its own announces it too, as the build listed it (issue 29)', async () => {
    const fetches = (lang: string) =>
      `</assets/i18n/${lang}.json>; rel=preload; as=fetch; crossorigin, </api/ros/metadata>; rel=preload; as=fetch; crossorigin`;
    expect((await app.inject({ method: 'GET', url: '/stav-zadosti?lang=en' })).headers.link).toBe(
      `${fetches('en')}, </assets/StatusPage-Ab12Cd34.css>; rel=preload; as=style; crossorigin, </assets/StatusPage-Ef56Gh78.js>; rel=modulepreload`,
    );
    // Only names of the build's own assets are announced.
    expect((await app.inject({ method: 'GET', url: '/check' })).headers.link).toBe(
      `${fetches('cs')}, </assets/ValidityPage-Ij90Kl12.js>; rel=modulepreload`,
    );
    expect((await app.inject({ method: 'GET', url: '/' })).headers.link).toBe(fetches('cs'));
  });

  it('a hashed asset gets the few headers a file needs, not the page set (issue 14: bytes per file)', async () => {
    for (const encoding of ['br', undefined]) {
      const res = await get(encoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      // The one asset run as a document of its own (the bot check's worker) may load nothing.
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      for (const name of [
        'x-frame-options',
        'permissions-policy',
        'cross-origin-opener-policy',
        'x-xss-protection',
        // Cached for good, never revalidated, never fetched in parts (issue 26).
        'etag',
        'last-modified',
        'accept-ranges',
      ]) {
        expect(res.headers[name], name).toBeUndefined();
      }
    }
    // A page is revalidated: it keeps its validator.
    expect((await app.inject({ method: 'GET', url: '/check' })).headers.etag).toBeTruthy();
  });

  it('a page path in other case or with a trailing slash is redirected to its own, query kept; status and page agree (issue 22)', async () => {
    for (const [from, to] of [
      ['/Check?id=990000001x2070', '/check?id=990000001x2070'],
      ['/FORM', '/form'],
      ['/FORM?lang=en&eid=eid', '/form?lang=en&eid=eid'],
      ['/Duplicate/Form', '/duplicate/form'],
      ['/DUPLIKAT', '/duplikat'],
      ['/form/', '/form'],
      ['/Not-Found?lang=en', '/not-found?lang=en'],
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await app.inject({ method, url: from });
        expect(res.statusCode, `${method} ${from}`).toBe(301);
        expect(res.headers.location, from).toBe(to);
      }
    }
    for (const [path, status] of [
      ['/check?id=1x2', 200],
      ['/check', 200],
      ['/check?lang=en', 200],
      ['/check?id=', 404],
      ['/check?id=1x2x3&lang=en', 404],
      ['/check?id=abc', 404],
      ['/form', 200],
      ['/duplicate/form', 200],
      ['/not-found', 404],
      ['/forms', 404],
      ['/f%6Frm', 404],
      ['/form//', 404],
    ] as const) {
      const res = await app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(status);
      expect(res.headers['content-type'], path).toMatch(/text\/html/);
    }
  });

  it('the app under its own file name and a .html path a browser asks for are the not-found page, 404 (issue 36)', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    for (const url of ['/index.html', '/index.html?lang=en']) {
      const res = await app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
    }
    const page = await app.inject({ method: 'GET', url: '/foo.html', headers: html });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<div id="root">');
    // A missing script is still a plain 404 in the error shape.
    const script = await app.inject({
      method: 'GET',
      url: '/assets/missing-Ab12.js',
      headers: { accept: '*/*' },
    });
    expect(script.statusCode).toBe(404);
    expect(script.json().error.code).toBe('NOT_FOUND');
  });
});
