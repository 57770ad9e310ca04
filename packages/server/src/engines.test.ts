import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm ci` warns EBADENGINE for content-disposition 3 (from @fastify/static) and cookie 2 (from
 * @fastify/cookie and light-my-request): they declare Node >= 22, where the README says 20.19+.
 * Both are ES modules that their CommonJS dependents load with require(), which Node has done
 * without a flag since 20.19 (and 22.12); nothing else in them needs Node 22. These tests run
 * the dependents on the Node that runs the suite (Node 20 on our machines and in CI) through a
 * real server, so a Node where they do not work fails here (README "Node version").
 */
const require = createRequire(import.meta.url);

/** The package a dependent loads, as it resolves it. */
function loadedBy(dependent: string, name: string): { version: string; engines?: { node?: string } } {
  const from = createRequire(require.resolve(`${dependent}/package.json`));
  let dir = dirname(from.resolve(name));
  while (!dir.endsWith(join('node_modules', name))) dir = dirname(dir);
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

describe('the packages that declare Node 22, on this Node', () => {
  const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  };
  let app: FastifyInstance;
  let base: string;
  const dir = mkdtempSync(join(tmpdir(), 'ros-engines-'));

  beforeAll(async () => {
    writeFileSync(join(dir, 'potvrzení.pdf'), '%PDF-1.7 test');
    app = Fastify();
    await app.register(fastifyCookie, { secret: 'a-test-secret-of-some-length-0123' });
    await app.register(fastifyStatic, { root: dir, serve: false });
    app.get('/file', (_req, reply) => reply.download('potvrzení.pdf', 'žluťoučký kůň.pdf'));
    app.get('/set', (_req, reply) => {
      reply.setCookie('plain', 'a b;c', { path: '/', httpOnly: true, sameSite: 'lax', maxAge: 60 });
      reply.setCookie('signed', 'hodnota', { path: '/', signed: true });
      return { ok: true };
    });
    app.get('/read', (req) => ({
      plain: req.cookies.plain,
      signed: req.unsignCookie(req.cookies.signed ?? ''),
    }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs on a Node the README allows, with the Node 22 packages installed', () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const [wantMajor = 0, wantMinor = 0] = (/>=\s*(\d+)\.(\d+)/.exec(root.engines.node) ?? [])
      .slice(1)
      .map(Number);
    expect(major > wantMajor || (major === wantMajor && minor >= wantMinor)).toBe(true);
    expect(loadedBy('@fastify/static', 'content-disposition')).toMatchObject({ engines: { node: '>=22' } });
    expect(loadedBy('@fastify/cookie', 'cookie')).toMatchObject({ engines: { node: '>=22' } });
    expect(loadedBy('light-my-request', 'cookie')).toMatchObject({ engines: { node: '>=22' } });
  });

  it('content-disposition (through @fastify/static) names a download, also in Czech', async () => {
    const res = await fetch(`${base}/file`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('%PDF-1.7 test');
    const header = res.headers.get('content-disposition') ?? '';
    expect(header).toMatch(/^attachment; filename="/);
    expect(header).toContain("filename*=UTF-8''%C5%BElu%C5%A5ou%C4%8Dk%C3%BD%20k%C5%AF%C5%88.pdf");
  });

  it('cookie (through @fastify/cookie) writes and reads cookies, also signed ones', async () => {
    const set = await fetch(`${base}/set`);
    const cookies = set.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('plain='))).toMatch(
      /^plain=a%20b%3Bc; Max-Age=60; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const jar = cookies.map((c) => c.split(';')[0]).join('; ');
    const read = await fetch(`${base}/read`, { headers: { cookie: jar } });
    expect(await read.json()).toEqual({
      plain: 'a b;c',
      signed: { valid: true, renew: false, value: 'hodnota' },
    });
  });

  it('cookie (through light-my-request) carries cookies into injected requests', async () => {
    const res = await app.inject({ method: 'GET', url: '/read', cookies: { plain: 'x y' } });
    expect(res.json()).toMatchObject({ plain: 'x y' });
    const set = await app.inject({ method: 'GET', url: '/set' });
    expect(set.cookies.find((c) => c.name === 'plain')).toMatchObject({ value: 'a b;c', httpOnly: true });
  });
});
