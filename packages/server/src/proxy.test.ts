import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validityCode } from '@ros/domain';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, OTHER_ROS_VARIABLES } from './config/config.js';
import { clientKey } from './http/ipRanges.js';
import { saveRecords } from './records/repository.js';
import { createTestDb, type TestDb, testDbKinds } from './test/databases.js';

/**
 * Per-address limits behind a reverse proxy (issue 11): a client-written X-Forwarded-For must not
 * make every request look like a new client. Both shapes: a client sending a random header
 * straight to the server, and nginx's `spoofed, real` (it appends the address it saw).
 */

const FUTURE = '2031-05-20';
const TOKEN = `7x${validityCode(FUTURE)}`;
const randomIp = () => [...randomBytes(4)].join('.');
const PROXY = '127.0.0.1';
const CLIENT = '198.51.100.7';

async function count(
  app: FastifyInstance,
  n: number,
  req: () => InjectOptions,
): Promise<{ answered: number; limited: number }> {
  let limited = 0;
  for (let i = 0; i < n; i++) {
    const res = await app.inject(req());
    if (res.statusCode === 429) limited++;
  }
  return { answered: n - limited, limited };
}

for (const kind of await testDbKinds()) {
  for (const trust of [PROXY, 'true', '1']) {
    describe(`ROS_TRUST_PROXY=${trust}: spoofed X-Forwarded-For (${kind})`, () => {
      let t: TestDb;
      let app: FastifyInstance;
      beforeAll(async () => {
        t = await createTestDb(kind, {
          ROS_TRUST_PROXY: trust,
          ROS_RATE_LIMIT_VALIDITY: '60',
          ROS_RATE_LIMIT_SEARCH: '20',
        });
        await saveRecords(t.db, [
          {
            id: 7,
            person_id: null,
            stav: 'Ano',
            platnost_do: FUTURE,
            a1a3_valid_until: null,
            a2_valid_until: null,
            first_name: 'Jiřina',
            last_name: 'Dvořáková',
          },
        ]);
        app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      });
      afterAll(async () => {
        await app?.close();
        await t?.cleanup();
      });

      // `xff` is called for every request: a new spoofed address each time.
      const validity = (remoteAddress: string, xff: () => string) => () => ({
        method: 'GET' as const,
        url: `/api/ros/${TOKEN}/validity`,
        remoteAddress,
        headers: { 'x-forwarded-for': xff() },
      });
      const validate = (remoteAddress: string, xff: () => string) => () => ({
        method: 'POST' as const,
        url: '/api/ros/validate',
        remoteAddress,
        headers: { 'x-forwarded-for': xff(), 'content-type': 'application/json' },
        payload: '{}',
      });

      it('the validity check (limit 60): nginx shape `spoofed, real` is counted per real client', async () => {
        const r = await count(
          app,
          300,
          validity(PROXY, () => `${randomIp()}, ${CLIENT}`),
        );
        expect(r.answered).toBeLessThanOrEqual(61);
        expect(r.limited).toBeGreaterThanOrEqual(239);
        // Another real client behind the same proxy has its own count.
        const other = await app.inject(validity(PROXY, () => `${randomIp()}, 198.51.100.8`)());
        expect(other.statusCode).toBe(200);
      });

      it('validate (limit 20): nginx shape `spoofed, real` is counted per real client', async () => {
        const r = await count(
          app,
          100,
          validate(PROXY, () => `${randomIp()}, 198.51.100.9`),
        );
        expect(r.answered).toBeLessThanOrEqual(20);
      });

      if (trust === PROXY) {
        // A client that reaches the server directly is not a trusted proxy: its header is ignored.
        it('the validity check: a direct client with random headers is one client', async () => {
          const r = await count(app, 300, validity('203.0.113.5', randomIp));
          expect(r.answered).toBeLessThanOrEqual(61);
        });
        it('validate: a direct client with random headers is one client', async () => {
          const r = await count(app, 100, validate('203.0.113.6', randomIp));
          expect(r.answered).toBeLessThanOrEqual(20);
        });
      }
    });
  }
}

describe('ROS_TRUST_PROXY values', () => {
  it('takes addresses, CIDR ranges, proxy-addr names and hop counts; refuses the rest', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ ROS_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ROS_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ROS_TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,loopback,::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'loopback',
      '::1',
    ]);
    // Outside production `true` means the one proxy in front, never "believe every entry".
    expect(loadConfig({ ROS_TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(() => loadConfig({ ROS_TRUST_PROXY: 'proxy.example' })).toThrow(/ROS_TRUST_PROXY/);
    expect(() => loadConfig({ ROS_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/ROS_TRUST_PROXY/);
  });

  it('refuses the ambiguous `true` in production', () => {
    try {
      loadConfig({
        NODE_ENV: 'production',
        ROS_TRUST_PROXY: 'true',
        ROS_USE_EID: 'NO',
        ROS_PUBLIC_URL: 'https://ros.example.cz',
        ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
        ROS_STATUS_KEY: randomBytes(32).toString('hex'),
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual([
        expect.stringMatching(/^ROS_TRUST_PROXY=true is ambiguous/),
      ]);
    }
  });

  it('a hop count takes the address the nearest proxy saw, not the leftmost', async () => {
    const t = await createTestDb('sqlite', { ROS_TRUST_PROXY: '2' });
    const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
    app.get('/ip', async (req) => ({ ip: req.ip }));
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/ip',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': `${randomIp()}, ${CLIENT}, 10.0.0.1` },
      });
      expect(res.json().ip).toBe(CLIENT);
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});

/** A 16-bit group in hex. */
const hex16 = () => randomBytes(2).toString('hex');

/**
 * Issue 33 item 7: behind a named proxy, the addresses of one IPv6 /64 (one subscriber's network)
 * got 100 of 100 status look-ups of a limit of 20. IPv6 clients are counted by their /64
 * (ROS_RATE_LIMIT_IPV6_PREFIX), IPv4 clients by address.
 */
for (const kind of await testDbKinds()) {
  describe(`IPv6 clients counted by their network, behind a named proxy (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    beforeAll(async () => {
      t = await createTestDb(kind, {
        ROS_TRUST_PROXY: PROXY,
        ROS_RATE_LIMIT_STATUS: '20',
        ROS_RATE_LIMIT_VALIDITY: '20',
        ROS_RATE_LIMIT_SEARCH: '20',
      });
      app = await buildApp({ config: t.config, db: t.db, version: 'test' });
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    /** A new address of the /64 `net` (four groups) for each call. */
    const in64 = (net: string) => () => `${net}:${hex16()}:${hex16()}:${hex16()}:${hex16()}`;
    const status = (client: () => string) => () => ({
      method: 'POST' as const,
      url: '/api/ros/status',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': client(), 'content-type': 'application/json' },
      payload: { reference: 'ROS-2026-000001', code: 'AAAA-BBBB-CCCC' },
    });
    const get = (url: string, client: () => string) => () => ({
      method: 'GET' as const,
      url,
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': client() },
    });
    const post = (url: string, client: () => string) => () => ({
      ...get(url, client)(),
      method: 'POST' as const,
      headers: { 'x-forwarded-for': client(), 'content-type': 'application/json' },
      payload: '{}',
    });

    it('status look-ups: 100 from one /64 get the limit (20), another /64 its own', async () => {
      const r = await count(app, 100, status(in64('2001:db8:7:1')));
      expect(r.answered).toBe(20);
      expect((await app.inject(status(in64('2001:db8:7:2'))())).statusCode).not.toBe(429);
    });

    it('the validity check and validate: one /64 is one client', async () => {
      expect((await count(app, 60, get(`/api/ros/${TOKEN}/validity`, in64('2001:db8:7:3')))).answered).toBe(
        20,
      );
      expect((await count(app, 60, post('/api/ros/validate', in64('2001:db8:7:4')))).answered).toBe(20);
    });

    it('IPv4 clients by address; an IPv4-mapped address is that IPv4 client', async () => {
      const v4 = await count(
        app,
        30,
        status(() => '198.51.100.77'),
      );
      expect(v4.answered).toBe(20);
      expect((await app.inject(status(() => '::ffff:198.51.100.77')())).statusCode).toBe(429);
      expect((await app.inject(status(() => '198.51.100.78')())).statusCode).not.toBe(429);
    });
  });
}

describe('ROS_RATE_LIMIT_IPV6_PREFIX', () => {
  it('is 64 by default, from 32 to 128', () => {
    expect(loadConfig({}).rateLimitIpv6Prefix).toBe(64);
    expect(loadConfig({ ROS_RATE_LIMIT_IPV6_PREFIX: '56' }).rateLimitIpv6Prefix).toBe(56);
    expect(() => loadConfig({ ROS_RATE_LIMIT_IPV6_PREFIX: '16' })).toThrow(/ROS_RATE_LIMIT_IPV6_PREFIX/);
  });

  it('keys a client by its network of that many bits', () => {
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:3:4:5:6', 48)).toBe('2001:db8:1::/48');
    expect(clientKey('2001:db8:1:2:3:4:5:6', 128)).toBe('2001:db8:1:2:3:4:5:6/128');
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1');
  });
});

/**
 * Issue 33 item 4: `0.0.0.0/0` was refused by form, but `0.0.0.0/1,128.0.0.0/1` and `::ffff:0:0/96`
 * started production and trusted every address. Production judges the set by what it covers.
 */
describe('ROS_TRUST_PROXY in production: judged by the public space it covers', () => {
  const production = (trust: string) => () =>
    loadConfig({
      NODE_ENV: 'production',
      ROS_TRUST_PROXY: trust,
      ROS_USE_EID: 'NO',
      ROS_PUBLIC_URL: 'https://ros.example.cz',
      ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
      ROS_STATUS_KEY: randomBytes(32).toString('hex'),
    });

  it.each([
    '0.0.0.0/1,128.0.0.0/1',
    '::ffff:0:0/96',
    '::ffff:0.0.0.0/96',
    '::/1,8000::/1',
    '0.0.0.0/2,64.0.0.0/2,128.0.0.0/2,192.0.0.0/2',
    '1.0.0.0/8',
    '2000::/3',
    '2a00::/12',
    '64:ff9b::/96',
    '10.0.0.0/8,8.0.0.0/7',
    // A hosting provider's range: other tenants in it could write any address.
    '185.10.0.0/16',
    '185.10.0.0/24,185.10.1.0/24',
    '2a01:4f8::/32',
    '2a01:4f8:1::/48',
  ])('refuses %s', (trust) => {
    expect(production(trust)).toThrow(/ROS_TRUST_PROXY=.* trusts public address space/);
  });

  it.each([
    '10.0.0.5,10.0.1.0/24',
    'loopback,linklocal,uniquelocal',
    '127.0.0.1,::1',
    '172.16.0.0/12,192.168.0.0/16,fc00::/7',
    // A proxy at a public address, and a pool's own network (documentation and benchmarking
    // ranges are not public space).
    '203.0.113.10',
    '198.18.0.0/15',
    '185.10.0.0/24',
    '185.10.0.1,185.10.7.0/25',
    '2001:db8::/32,2a01:4f8:1:2::/64',
  ])('accepts %s', (trust) => {
    expect(production(trust)().trustProxy).toEqual(trust.split(','));
  });

  it('says what it does outside production (where nobody is a stranger): the same set starts', () => {
    expect(loadConfig({ ROS_TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1' }).trustProxy).toHaveLength(2);
  });
});

/**
 * The nginx template (deploy/nginx/ros.conf.template) as a deployment fills it in: every variable
 * is one the server knows as another tool's (a shared environment does not stop production), and
 * the console (/urad, /urad-test) is served only from ROS_CONSOLE_ALLOW's networks. nginx itself
 * runs it in e2e/topology/edges.topology.ts; here `nginx -t` reads it when nginx is installed.
 */
describe('the nginx template', () => {
  const template = readFileSync(
    fileURLToPath(new URL('../../../deploy/nginx/ros.conf.template', import.meta.url)),
    'utf8',
  );
  const values: Record<string, string> = {
    ROS_SERVER_NAME: 'ros.example.cz',
    ROS_HTTPS_PORT: '8443',
    ROS_HTTP_PORT: '8080',
    ROS_TLS_CERT: '/etc/ros/tls.crt',
    ROS_TLS_KEY: '/etc/ros/tls.key',
    ROS_TLS_TRUSTED: '/etc/ros/tls.crt',
    ROS_RESOLVER: '127.0.0.53',
    ROS_UPSTREAMS: 'server 10.0.0.5:8080 max_fails=1 fail_timeout=2s;',
    ROS_INTAKE_ALLOW: '10.20.0.0/16',
    ROS_CONSOLE_ALLOW: 'allow 10.30.0.0/16; allow 2001:db8:30::/48;',
  };
  /** As envsubst fills it (comments too). */
  const render = (v: Record<string, string>) =>
    template.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => {
      const value = v[name];
      if (value === undefined) throw new Error(`no value for ${name}`);
      return value;
    });
  /** The block of `location <match>` (up to its closing brace at the same indent). */
  const block = (conf: string, match: string) => {
    const start = conf.indexOf(`    location ${match} {\n`);
    if (start < 0) return null;
    return conf.slice(start, conf.indexOf('\n    }\n', start) + 6);
  };

  it("uses only variables the server knows as the template's", () => {
    const names = [...new Set([...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((m) => m[1] as string))];
    expect(names.sort()).toEqual(Object.keys(values).sort());
    for (const name of names) expect(OTHER_ROS_VARIABLES, name).toContain(name);
    expect(loadConfig(values).unknownSettings).toEqual([]);
  });

  it('serves /urad, /urad/ and /urad-test only to ROS_CONSOLE_ALLOW, proxied like the rest, refused with a page of its own', () => {
    const conf = render(values);
    const consoleBlock = block(conf, '^~ /urad');
    expect(consoleBlock).toBe(
      [
        '    location ^~ /urad {',
        '        error_page 403 @ros_console_refused;',
        '        allow 10.30.0.0/16; allow 2001:db8:30::/48;',
        '        deny all;',
        '        proxy_pass http://ros_portal;',
        '    }',
      ].join('\n'),
    );
    // ^~ is a prefix of /urad, /urad/… and /urad-test alike, and no regular-expression location takes them.
    expect(conf).not.toMatch(/location ~/);
    const refused = block(conf, '@ros_console_refused') ?? '';
    expect(refused).toContain(
      "add_header Content-Security-Policy \"default-src 'none'; frame-ancestors 'none'\" always;",
    );
    expect(refused).toContain('Konzole úřadu je dostupná jen ze sítě úřadu.');
    expect(refused).not.toMatch(/<script|<link|<img/);
    // Empty: nobody gets the console (deny all alone), never everybody.
    expect(block(render({ ...values, ROS_CONSOLE_ALLOW: '' }), '^~ /urad')).toContain(
      '        \n        deny all;',
    );
  });

  it.skipIf(spawnSync('nginx', ['-v']).status !== 0)('is read by nginx -t', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ros-nginx-'));
    try {
      const cert = join(dir, 'tls.crt');
      const key = join(dir, 'tls.key');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-keyout',
          key,
          '-out',
          cert,
        ],
        { stdio: 'ignore' },
      );
      writeFileSync(
        join(dir, 'ros.conf'),
        render({ ...values, ROS_TLS_CERT: cert, ROS_TLS_KEY: key, ROS_TLS_TRUSTED: cert }),
      );
      const main = join(dir, 'nginx.conf');
      writeFileSync(
        main,
        `daemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 16; }\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fastcgi;\n  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n  include ${dir}/ros.conf;\n}\n`,
      );
      const r = spawnSync('nginx', ['-t', '-c', main, '-p', dir], { encoding: 'utf8' });
      expect(r.stderr).toMatch(/syntax is ok/);
      expect(r.status, r.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
