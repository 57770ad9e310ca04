import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config/config.js';
import type { AppContext } from '../context.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { seedFormData } from '../test/seed.js';
import { createNiaService } from './index.js';
import { loopbackOrigin, signInOrigin } from './publicUrl.js';

describe('the sign-in address in development (ROS_PUBLIC_URL unset)', () => {
  const dev = loadConfig({ PORT: '8080' });

  it('follows a loopback Host of this port, and nothing else', () => {
    expect(dev.publicUrlFollowsHost).toBe(true);
    expect(loopbackOrigin(dev, '127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(loopbackOrigin(dev, 'LOCALHOST:8080')).toBe('http://localhost:8080');
    expect(loopbackOrigin(dev, '[::1]:8080')).toBe('http://[::1]:8080');
    expect(loopbackOrigin(dev, '127.0.0.1:8081')).toBeUndefined();
    expect(loopbackOrigin(dev, '127.0.0.1')).toBeUndefined();
    expect(loopbackOrigin(dev, 'evil.example:8080')).toBeUndefined();
    expect(loopbackOrigin(dev, 'localhost.evil.example:8080')).toBeUndefined();
    expect(loopbackOrigin(dev, '127.0.0.1:8080@evil.example')).toBeUndefined();
    expect(loopbackOrigin(dev, undefined)).toBeUndefined();

    expect(signInOrigin(dev, '127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(signInOrigin(dev, 'localhost:8080')).toBeUndefined();
    expect(signInOrigin(dev, 'evil.example:8080')).toBeUndefined();

    // One sign-in per address: the NIA client and test provider made for it are reused.
    const nia = createNiaService({ config: dev, db: undefined as never });
    const loopback = nia.forHost('127.0.0.1:8080');
    expect(loopback.config.publicUrl).toBe('http://127.0.0.1:8080');
    expect(nia.forHost('127.0.0.1:8080')).toBe(loopback);
    expect(nia.forHost('localhost:8080').config).toBe(dev);
    expect(nia.forHost('evil.example:8080')).toBe(nia.forHost(undefined));
  });

  it('never follows in production, with ROS_PUBLIC_URL set, or with a real NIA', () => {
    const production = loadConfig({
      PORT: '8080',
      NODE_ENV: 'production',
      ROS_PUBLIC_URL: 'https://ros.example.cz',
      ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
      ROS_STATUS_KEY: randomBytes(32).toString('hex'),
      // The test provider switched on in production, explicitly: still no following the Host.
      ROS_NIA_TEST_PROVIDER: 'true',
      ROS_NIA_CLIENT_SECRET: randomBytes(32).toString('hex'),
    });
    expect(production.niaTestProvider).toBe(true);
    const set = loadConfig({ PORT: '8080', ROS_PUBLIC_URL: 'http://localhost:8080' });
    const realNia = loadConfig({
      PORT: '8080',
      ROS_NIA_ISSUER: 'https://nia.example',
      ROS_NIA_CLIENT_ID: 'id',
      ROS_NIA_CLIENT_SECRET: 'secret',
    });
    for (const c of [production, set, realNia]) expect(signInOrigin(c, '127.0.0.1:8080')).toBeUndefined();
    expect(production.publicUrlFollowsHost).toBe(false);
    expect(set.publicUrlFollowsHost).toBe(false);
  });
});

/** A browser's cookies for one host (names are unique in this flow, paths do not matter). */
class Jar {
  private cookies = new Map<string, string>();
  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

for (const kind of await testDbKinds()) {
  describe(`NIA sign-in opened as http://127.0.0.1 with the default ROS_PUBLIC_URL (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let port: number;

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_SEARCH: '100000' });
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
      app = await buildApp(ctx);
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as { port: number }).port;
      // As `PORT=<port> npm start`: the default public address is localhost on this port.
      t.config.port = port;
      t.config.publicUrl = `http://localhost:${port}`;
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('stays on 127.0.0.1 from the start to the signed-in form', async () => {
      const base = `http://127.0.0.1:${port}`;
      const jar = new Jar();
      const get = async (url: string, init: RequestInit = {}) => {
        const res = await fetch(new URL(url, base), {
          ...init,
          redirect: 'manual',
          headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
        });
        jar.store(res);
        return res;
      };
      const next = (res: Response) => new URL(res.headers.get('location') ?? '', base).href;

      let res = await get('/api/ros/sso-redirect?from=form');
      expect(res.status).toBe(302);
      let url = next(res);
      expect(url.startsWith(`${base}/nia-test/`)).toBe(true);
      expect(new URL(url).searchParams.get('redirect_uri')).toBe(`${base}/api/ros/sso-callback`);
      res = await get(url);
      while (res.status === 302 || res.status === 303) res = await get(next(res));
      const uid = /\/nia-test\/interaction\/([^/"]+)\/login/.exec(await res.text())?.[1];
      expect(uid).toBeTruthy();
      res = await get(`/nia-test/interaction/${uid}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'identity=demo-nia-1001',
      });
      while (res.status === 302 || res.status === 303) {
        url = next(res);
        expect(url.startsWith(base), url).toBe(true);
        res = await get(url);
        if (url.startsWith(`${base}/api/ros/sso-callback`)) break;
      }
      expect(res.status).toBe(302);
      expect(next(res)).toBe(`${base}/form?eid=nia`);
      const session = await get('/api/ros/sso-session');
      expect(session.status).toBe(200);
      expect(((await session.json()) as { nia: { last_name: string } }).nia.last_name).toBe('Dvořák');
    });

    it('sends any other Host to the configured address', async () => {
      for (const host of [`evil.example:${port}`, `127.0.0.1:${port + 1}`, `localhost:${port}`]) {
        const res = await app.inject({
          method: 'GET',
          url: '/api/ros/sso-redirect?from=form',
          headers: { host },
        });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location, host).toMatch(new RegExp(`^http://localhost:${port}/nia-test/`));
      }
    });
  });
}
