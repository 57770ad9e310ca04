import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type BotCheck, createBotCheck } from '../botcheck/index.js';
import type { AppContext } from '../context.js';
import { seedDemoPersons } from '../demo/persons.js';
import { altchaToken, solvedToken } from '../test/botcheck.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';

/** The app as main.ts builds it; `botCheck` in place of the one it would build. */
async function app(ctx: AppContext, botCheck?: BotCheck): Promise<FastifyInstance> {
  const a = await buildApp(ctx, { serviceOptions: { botCheck } });
  await a.ready();
  return a;
}

const STEPAN = { first_name: 'Štěpán', last_name: 'Dvořák', type: 'OP_CR', number: '123456789' };

for (const kind of await testDbKinds()) {
  describe(`search (${kind})`, () => {
    let t: TestDb;
    let a: FastifyInstance;
    const search = async (body: unknown, token?: string, url = '/api/ros/search') =>
      a.inject({
        method: 'POST',
        url,
        payload: body as object,
        headers: { 'content-type': 'application/json', ...(token !== undefined ? { recaptcha: token } : {}) },
      });
    const searchOk = async (body: unknown, url = '/api/ros/search') =>
      search(body, await solvedToken(a), url);

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_ALTCHA_MAX_NUMBER: '1000', ROS_RATE_LIMIT_SEARCH: '100000' });
      await seedDemoPersons(t.db);
      a = await app({ config: t.config, db: t.db, version: 'test' });
    });
    afterAll(async () => {
      await a?.close();
      await t?.cleanup();
    });

    it('serves a fresh ALTCHA challenge that is never cached', async () => {
      const r1 = await a.inject({ method: 'GET', url: '/api/ros/altcha-challenge' });
      const r2 = await a.inject({ method: 'GET', url: '/api/ros/altcha-challenge' });
      expect(r1.headers['cache-control']).toBe('no-store');
      expect(r1.json().parameters.algorithm).toBe('SHA-256');
      expect(r1.json().signature).not.toBe(r2.json().signature);
    });

    it('finds a person by names and document, in Czech field names, with the certificate', async () => {
      const r = await searchOk(STEPAN);
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      const p = r.json();
      expect(p).toMatchObject({
        jmeno: 'Štěpán',
        prijmeni: 'Dvořák',
        rodne_prijm: 'Dvořák',
        pohlavi: '1',
        rc: '850315/1008',
        ulice: 'Korunní 2569/108',
        mesto: 'Praha',
        psc: '101 00',
        stat: 'CZ',
        st_kod: 'CZ',
        typ_op_pas: 'ID',
        op_pas: '123456789',
        email: 'stepan.dvorak@example.cz',
        typ_predani: 'EMAIL',
      });
      expect(p.activities).toHaveLength(2);
      expect(p.activities[0]).toEqual({
        zam_od: '09/2014',
        zam_do: '02/2019',
        typ: 1,
        zamestnavatel: 'České aerolinie a.s.',
        funkce: 'Mechanik',
      });
      expect(p.record).toMatchObject({ id: 1001, stav: 'Ano' });
      expect(p.record.platnost_do).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      expect(p.record.a1a3.valid_until).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      expect(p).not.toHaveProperty('id');
    });

    it('matches names ignoring case, diacritics and spaces around, numbers ignoring spaces', async () => {
      const r = await searchOk({
        first_name: '  ŠTĚPÁN ',
        last_name: 'dvorak',
        type: 'OP_CR',
        number: ' 123 456 789 ',
      });
      expect(r.statusCode).toBe(200);
      expect(r.json().jmeno).toBe('Štěpán');
      const r2 = await searchOk({
        first_name: 'stepan',
        last_name: 'DVOŘÁK',
        type: 'OP_CR',
        number: '123456789',
      });
      expect(r2.statusCode).toBe(200);
    });

    it('answers 404 PERSON_NOT_FOUND when anything differs', async () => {
      for (const body of [
        { ...STEPAN, number: '123456780' },
        { ...STEPAN, type: 'PAS' },
        { ...STEPAN, first_name: 'Stepanka' },
        { ...STEPAN, last_name: 'Novák' },
        { ...STEPAN, birth_number: '500412/123' },
      ]) {
        const r = await searchOk(body);
        expect(r.statusCode, JSON.stringify(body)).toBe(404);
        expect(r.json().error.code).toBe('PERSON_NOT_FOUND');
      }
    });

    it('accepts a matching birth number and the duplicate flag', async () => {
      const r = await searchOk({ ...STEPAN, birth_number: '8503151008', duplicate: true });
      expect(r.statusCode).toBe(200);
    });

    it('answers without record for a person with no certificate; a passport by type PAS', async () => {
      const r = await searchOk({
        first_name: 'Karel',
        last_name: 'Prochazka',
        type: 'OP_CR',
        number: '234567890',
      });
      expect(r.statusCode).toBe(200);
      expect(r.json()).not.toHaveProperty('record');
      const anna = await searchOk({
        first_name: 'anna',
        last_name: 'kowalska',
        type: 'PAS',
        number: 'ea 1234567',
      });
      expect(anna.statusCode).toBe(200);
      expect(anna.json().rc).toBeUndefined();
      expect(anna.json().st_kod).toBe('PL');
    });

    it('the retry finds by birth number with or without slash, a 9-digit one too', async () => {
      const proof = async (first_name: string, last_name: string, number: string) =>
        (await searchOk({ first_name, last_name, type: 'OP_CR', number })).json().match as string;
      const stepan = await proof('Štěpán', 'Dvořák', '123456789');
      const retry = '/api/ros/search-birth-number';
      const a1 = await searchOk({ birth_number: '850315/1008', match: stepan }, retry);
      expect(a1.statusCode).toBe(200);
      expect(a1.json().jmeno).toBe('Štěpán');
      expect(a1.json().match).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const a2 = await searchOk({ birth_number: '8503151008', match: stepan }, retry);
      expect(a2.json().prijmeni).toBe('Dvořák');
      const josef = await proof('Josef', 'Veselý', '345678901');
      const old = await searchOk({ birth_number: '500412/123', match: josef }, retry);
      expect(old.json()).toMatchObject({ jmeno: 'Josef', record: { stav: 'Ne' } });
      const none = await searchOk({ birth_number: '900101/1234', match: stepan }, retry);
      expect(none.statusCode).toBe(404);
      expect(none.json().error.code).toBe('PERSON_NOT_FOUND');
    });

    describe('bot check', () => {
      it('refuses a missing or empty token', async () => {
        for (const token of [undefined, '', '   ']) {
          const r = await search(STEPAN, token);
          expect(r.statusCode).toBe(403);
          expect(r.json().error.code).toBe('BOT_CHECK_MISSING');
        }
        const r = await search({ birth_number: '850315/1008' }, undefined, '/api/ros/search-birth-number');
        expect(r.statusCode).toBe(403);
      });

      it('refuses forged tokens', async () => {
        const good = await solvedToken(a);
        const payload = JSON.parse(Buffer.from(good, 'base64').toString());
        const tampered = (f: (p: typeof payload) => void) => {
          const copy = structuredClone(payload);
          f(copy);
          return Buffer.from(JSON.stringify(copy)).toString('base64');
        };
        const forged = [
          'not-a-token',
          Buffer.from('{"a":1}').toString('base64'),
          Buffer.from('[]').toString('base64'),
          'x'.repeat(20000),
          tampered((p) => {
            p.solution.derivedKey = '00'.repeat(32);
          }),
          tampered((p) => {
            p.challenge.parameters.expiresAt += 3600;
          }),
          tampered((p) => {
            p.challenge.signature = 'ab'.repeat(32);
          }),
          tampered((p) => {
            p.solution = 'x';
          }),
        ];
        for (const token of forged) {
          const r = await search(STEPAN, token);
          expect(r.statusCode, token.slice(0, 40)).toBe(403);
          expect(r.json().error.code).toBe('BOT_CHECK_INVALID');
        }
        // The untouched token still works: forged copies did not use it up.
        expect((await search(STEPAN, good)).statusCode).toBe(200);
      });

      it('refuses a challenge signed by another server', async () => {
        const other = createBotCheck({ ...t.config, altchaHmacKey: 'k'.repeat(40) }, t.db);
        const token = await altchaToken(await other.createChallenge());
        const r = await search(STEPAN, token);
        expect(r.statusCode).toBe(403);
        expect(r.json().error.code).toBe('BOT_CHECK_INVALID');
      });

      it('accepts each solution once', async () => {
        const token = await solvedToken(a);
        expect((await search(STEPAN, token)).statusCode).toBe(200);
        const again = await search(STEPAN, token);
        expect(again.statusCode).toBe(403);
        expect(again.json().error.code).toBe('BOT_CHECK_REPLAYED');
        const other = await search({ birth_number: '850315/1008' }, token, '/api/ros/search-birth-number');
        expect(other.json().error.code).toBe('BOT_CHECK_REPLAYED');
      });

      it('does not use up the token on a bad body', async () => {
        const token = await solvedToken(a);
        expect((await search({ ...STEPAN, extra: 1 }, token)).statusCode).toBe(400);
        expect((await search(STEPAN, token)).statusCode).toBe(200);
      });
    });

    describe('bad bodies get 400 INVALID_REQUEST, never 500', () => {
      const cases: Array<[string, unknown]> = [
        ['missing fields', { first_name: 'Jan' }],
        ['empty object', {}],
        ['wrong types', { first_name: 1, last_name: true, type: 'OP_CR', number: ['1'] }],
        ['unknown document type', { ...STEPAN, type: 'ID' }],
        ['extra field', { ...STEPAN, admin: true }],
        ['too long name', { ...STEPAN, first_name: 'a'.repeat(51) }],
        ['bad birth number', { ...STEPAN, birth_number: '12/34' }],
        ['duplicate not boolean', { ...STEPAN, duplicate: 'true' }],
        // The text policy (issue 11): PostgreSQL answered 500 to a NUL in a searched name.
        ['a NUL in a name', { ...STEPAN, first_name: 'Št\u0000ěpán' }],
        ['a lone surrogate in a number', { ...STEPAN, number: '123\uDC00' }],
        ['a bidirectional override', { ...STEPAN, last_name: '\u202EDvořák' }],
        ['nested too deep', { ...STEPAN, number: [[['1']]] }],
        ['a __proto__ key', JSON.parse('{"__proto__": {"x": 1}}')],
        ['an array', [STEPAN]],
        ['a string', 'hello'],
        ['null', null],
      ];
      it.each(cases)('%s', async (_name, body) => {
        const r = await a.inject({
          method: 'POST',
          url: '/api/ros/search',
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json', recaptcha: 'irrelevant' },
        });
        expect(r.statusCode).toBe(400);
        expect(r.json().error.code).toBe('INVALID_REQUEST');
      });

      it('lists the failing fields with message keys', async () => {
        const r = await search({ first_name: '', type: 'OP_CR', number: 'x'.repeat(300) }, 'x');
        const fields = r.json().error.fields as Array<{ path: string; message: string }>;
        expect(fields).toEqual(
          expect.arrayContaining([
            { path: 'first_name', message: 'required' },
            { path: 'last_name', message: 'required' },
            { path: 'number', message: 'maxlength' },
          ]),
        );
      });

      it('birth-number search: missing, malformed, extra', async () => {
        for (const body of [
          {},
          { birth_number: 850315 },
          { birth_number: '851315/1008' },
          { birth_number: '850315/1008', x: 1 },
        ]) {
          const r = await search(body, 'x', '/api/ros/search-birth-number');
          expect(r.statusCode, JSON.stringify(body)).toBe(400);
          expect(r.json().error.code).toBe('INVALID_REQUEST');
        }
      });

      it('a 10 MB string gets 413 PAYLOAD_TOO_LARGE', async () => {
        const r = await a.inject({
          method: 'POST',
          url: '/api/ros/search',
          payload: JSON.stringify({ ...STEPAN, first_name: 'a'.repeat(10 * 1024 * 1024) }),
          headers: { 'content-type': 'application/json', recaptcha: 'x' },
        });
        expect(r.statusCode).toBe(413);
        expect(r.json().error.code).toBe('PAYLOAD_TOO_LARGE');
      });

      it('broken JSON and other content types are a clear 4xx', async () => {
        const broken = await a.inject({
          method: 'POST',
          url: '/api/ros/search',
          payload: '{"first_name":',
          headers: { 'content-type': 'application/json', recaptcha: 'x' },
        });
        expect(broken.statusCode).toBe(400);
        const text = await a.inject({
          method: 'POST',
          url: '/api/ros/search',
          payload: 'first_name=Jan',
          headers: { 'content-type': 'application/x-www-form-urlencoded', recaptcha: 'x' },
        });
        expect(text.statusCode).toBe(415);
      });
    });
  });

  describe(`search limits and expiry (${kind})`, () => {
    let t: TestDb;
    afterAll(async () => t?.cleanup());

    it('refuses an expired solution and rate-limits per client address', async () => {
      t = await createTestDb(kind, {
        ROS_ALTCHA_MAX_NUMBER: '1000',
        ROS_RATE_LIMIT_SEARCH: '3',
        ROS_ALTCHA_HMAC_KEY: 's'.repeat(40),
      });
      await seedDemoPersons(t.db);
      const a = await app({ config: t.config, db: t.db, version: 'test' });
      try {
        // A challenge issued two hours ago with the server's key has expired.
        const past = createBotCheck(t.config, t.db, { now: () => new Date(Date.now() - 2 * 3600_000) });
        const token = await altchaToken(await past.createChallenge());
        const send = (ip: string, tok = token) =>
          a.inject({
            method: 'POST',
            url: '/api/ros/search',
            payload: STEPAN,
            remoteAddress: ip,
            headers: { recaptcha: tok },
          });
        const expired = await send('10.0.0.1');
        expect(expired.statusCode).toBe(403);
        expect(expired.json().error.code).toBe('BOT_CHECK_EXPIRED');
        expect((await send('10.0.0.1')).statusCode).toBe(403);
        expect((await send('10.0.0.1')).statusCode).toBe(403);
        const limited = await send('10.0.0.1');
        expect(limited.statusCode).toBe(429);
        expect(limited.json().error.code).toBe('RATE_LIMITED');
        // Another address has its own budget.
        expect((await send('10.0.0.2')).statusCode).toBe(403);
      } finally {
        await a.close();
      }
    });

    it('purges used tokens past their expiry', async () => {
      const b = createBotCheck(t.config, t.db);
      await t.db.kysely
        .insertInto('used_bot_tokens')
        .values([
          { token_hash: 'old', expires_at: new Date(Date.now() - 1000).toISOString() },
          { token_hash: 'new', expires_at: new Date(Date.now() + 60_000).toISOString() },
        ])
        .execute();
      expect(await b.purgeExpired()).toBeGreaterThanOrEqual(1);
      const left = await t.db.kysely.selectFrom('used_bot_tokens').select('token_hash').execute();
      expect(left.map((r) => r.token_hash)).toContain('new');
      expect(left.map((r) => r.token_hash)).not.toContain('old');
    });
  });

  describe(`reCAPTCHA provider (${kind})`, () => {
    let t: TestDb;
    let a: FastifyInstance;
    let server: Server;
    const seen: URLSearchParams[] = [];

    beforeAll(async () => {
      // A local stand-in for Google's siteverify: answers by token.
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          const form = new URLSearchParams(body);
          seen.push(form);
          const token = form.get('response') ?? '';
          const ok = { success: true, score: 0.9, action: 'SearchAction', hostname: 'ros.example.cz' };
          const answers: Record<string, object> = {
            good: ok,
            good2: ok,
            'low-score': { ...ok, score: 0.2 },
            'other-action': { ...ok, action: 'SubmitFormAction' },
            'other-host': { ...ok, hostname: 'evil.example' },
            used: { success: false, 'error-codes': ['timeout-or-duplicate'] },
          };
          if (token === 'broken') {
            res.writeHead(500).end();
            return;
          }
          const answer =
            form.get('secret') === 'the-secret'
              ? (answers[token] ?? { success: false, 'error-codes': ['invalid-input-response'] })
              : { success: false };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      t = await createTestDb(kind, {
        ROS_BOT_CHECK: 'recaptcha',
        ROS_RECAPTCHA_SITE_KEY: 'the-site-key',
        ROS_RECAPTCHA_SECRET: 'the-secret',
        ROS_RECAPTCHA_MIN_SCORE: '0.5',
        ROS_RATE_LIMIT_SEARCH: '100000',
      });
      await seedDemoPersons(t.db);
      const botCheck = createBotCheck(t.config, t.db, {
        recaptchaVerifyUrl: `http://127.0.0.1:${port}/siteverify`,
      });
      a = await app({ config: t.config, db: t.db, version: 'test' }, botCheck);
    });
    afterAll(async () => {
      await a?.close();
      await t?.cleanup();
      await new Promise((resolve) => server?.close(resolve));
    });

    const send = (token: string | undefined, host = 'ros.example.cz') =>
      a.inject({
        method: 'POST',
        url: '/api/ros/search',
        payload: STEPAN,
        headers: { host, ...(token !== undefined ? { recaptcha: token } : {}) },
      });

    it('accepts a good token once, sending the secret and the token', async () => {
      const r = await send('good', 'ROS.example.cz:8443');
      expect(r.statusCode).toBe(200);
      expect(seen.at(-1)?.get('secret')).toBe('the-secret');
      expect(seen.at(-1)?.get('response')).toBe('good');
      const again = await send('good');
      expect(again.statusCode).toBe(403);
      expect(again.json().error.code).toBe('BOT_CHECK_REPLAYED');
    });

    it.each([
      [undefined, 'BOT_CHECK_MISSING'],
      ['forged', 'BOT_CHECK_INVALID'],
      ['used', 'BOT_CHECK_EXPIRED'],
      ['low-score', 'BOT_CHECK_SCORE'],
      ['other-action', 'BOT_CHECK_ACTION'],
      ['other-host', 'BOT_CHECK_HOSTNAME'],
    ])('token %s: 403 %s', async (token, code) => {
      const r = await send(token);
      expect(r.statusCode).toBe(403);
      expect(r.json().error.code).toBe(code);
    });

    it('checks the hostname of the request', async () => {
      const r = await send('good2', 'other.example.cz');
      expect(r.json().error.code).toBe('BOT_CHECK_HOSTNAME');
    });

    it('answers 503 when siteverify fails', async () => {
      const r = await send('broken');
      expect(r.statusCode).toBe(503);
      expect(r.json().error.code).toBe('BOT_CHECK_UNAVAILABLE');
    });

    it('serves no ALTCHA challenge', async () => {
      const r = await a.inject({ method: 'GET', url: '/api/ros/altcha-challenge' });
      expect(r.statusCode).toBe(404);
      expect(r.json().error.code).toBe('BOT_CHECK_PROVIDER');
    });
  });
}
