import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The supported Node versions are package.json's `engines` (22.12+ and 24, the production one:
 * README "Node version"); the machines' Node 20.19+ keeps working until they move (CI runs this
 * file on it too, .ci/run). content-disposition 3 (from @fastify/static) and cookie 2 (from
 * @fastify/cookie and light-my-request) declare Node >= 22: ES modules that their CommonJS
 * dependents load with require(), which Node has done without a flag since 20.19 and 22.12.
 * These tests run the dependents on the Node that runs the suite through a real server, so a
 * Node where they do not work fails here.
 */
const require = createRequire(import.meta.url);

/** The package a dependent loads, as it resolves it. */
function loadedBy(dependent: string, name: string): { version: string; engines?: { node?: string } } {
  const from = createRequire(require.resolve(`${dependent}/package.json`));
  let dir = dirname(from.resolve(name));
  while (!dir.endsWith(join('node_modules', name))) dir = dirname(dir);
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** The Node of the development machines and CI, not supported but kept working until they move. */
const MACHINES_NODE = '^20.19.0';

/** Whether `version` is in `range`, a list of caret ranges (`^22.12.0 || ^24.0.0`). */
function allows(range: string, version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return range.split('||').some((part) => {
    const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!m) throw new Error(`not a caret range: ${part}`);
    const [want, wantMinor, wantPatch] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return major === want && (minor > wantMinor || (minor === wantMinor && patch >= wantPatch));
  });
}

it('reads the engines ranges', () => {
  expect(allows('^22.12.0 || ^24.0.0', '24.18.1')).toBe(true);
  expect(allows('^22.12.0 || ^24.0.0', '22.12.0')).toBe(true);
  expect(allows('^22.12.0 || ^24.0.0', '22.11.9')).toBe(false);
  expect(allows('^22.12.0 || ^24.0.0', '23.5.0')).toBe(false);
  expect(allows('^22.12.0 || ^24.0.0', '20.20.2')).toBe(false);
  expect(allows(MACHINES_NODE, '20.20.2')).toBe(true);
});

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
    expect(process.versions.node).toSatisfy(
      (v: string) => allows(root.engines.node, v) || allows(MACHINES_NODE, v),
    );
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
