import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_ERROR_CODES, validityCode } from '@ros/domain';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import type { AppContext } from './context.js';
import { createToken, SCOPES } from './intake/tokens.js';
import type { OpenApiDocument } from './openapi.js';
import { agreed, newApplicant } from './test/applicant.js';
import { solvedToken } from './test/botcheck.js';
import { createTestDb, type TestDb, testDbKinds } from './test/databases.js';
import { seedFormData } from './test/seed.js';

/** The calls of spec section 7 (its table), plus the sign-in callback and the ALTCHA challenge. */
const SPEC_CALLS = [
  'get /api/ros/countries',
  'get /api/ros/municipalities',
  'get /api/ros/districts',
  'get /api/ros/delivery-types',
  'get /api/ros/duplicate-types',
  'get /api/ros/document-types',
  'get /api/ros/verification-types',
  'get /api/ros/dial-codes',
  'get /api/ros/sso-session',
  'get /api/ros/{id}/validity',
  'post /api/ros/validate',
  'post /api/ros/search',
  'post /api/ros/search-birth-number',
  'post /api/ros',
  'get /api/ros/pdf/{id}',
  'get /api/ros/metadata',
  'get /api/ros/sso-redirect',
  'get /api/ros/sso-callback',
  'get /api/ros/altcha-challenge',
];

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

describe('the error codes', () => {
  it("are each documented in docs/ (errors.md and the routes' pages)", () => {
    const dir = fileURLToPath(new URL('../../../docs/', import.meta.url));
    const docs = readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    expect(API_ERROR_CODES.filter((code) => !new RegExp(`\\b${code}\\b`).test(docs))).toEqual([]);
  });
});

for (const kind of await testDbKinds()) {
  describe(`GET /api/docs: the OpenAPI document (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let doc: OpenApiDocument;
    const ajv = new Ajv2020({ strict: false, allErrors: true });

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_ALTCHA_MAX_NUMBER: '1000', ROS_RATE_LIMIT_SEARCH: '100000' });
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
      app = await buildApp(ctx);
      await app.ready();
      const r = await app.inject({ method: 'GET', url: '/api/docs' });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      doc = r.json() as OpenApiDocument;
      ajv.addSchema(doc as object, 'openapi');
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    /** Checks a real answer against the document's schema for its call and status (`4XX`/`5XX` for errors). */
    function expectDocumented(method: string, path: string, res: LightMyRequestResponse) {
      const operation = doc.paths[path]?.[method] as { responses: Record<string, unknown> } | undefined;
      expect(operation, `${method} ${path} is in the document`).toBeDefined();
      const status = String(res.statusCode);
      const key = [status, `${status[0]}XX`].find((k) => operation && k in operation.responses) ?? 'none';
      if (res.statusCode < 400) expect(key, `${method} ${path} documents ${status}`).toBe(status);
      const ref = `openapi#/${pointer('paths', path, method, 'responses', key, 'content', 'application/json', 'schema')}`;
      const validate = ajv.getSchema(ref);
      expect(validate, ref).toBeDefined();
      const ok = validate?.(res.json());
      expect(ok, `${method} ${path} ${status}: ${JSON.stringify(validate?.errors)}`).toBe(true);
    }

    /** Checks a request body the test sends (as the web app does) against the document's request schema. */
    function expectBodyDocumented(method: string, path: string, body: unknown) {
      const ref = `openapi#/${pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema')}`;
      const validate = ajv.getSchema(ref);
      expect(validate, ref).toBeDefined();
      expect(validate?.(body), `${method} ${path} body: ${JSON.stringify(validate?.errors)}`).toBe(true);
    }

    it('is OpenAPI 3.1 and lists every call of spec section 7', () => {
      expect(doc.openapi).toBe('3.1.0');
      const listed = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m} ${path}`),
      );
      for (const call of SPEC_CALLS) expect(listed).toContain(call);
      // Each listed call is a route the server has, the intake API's too.
      expect(listed.some((c) => c.startsWith('get /api/intake/v1/requests'))).toBe(true);
      for (const call of listed) {
        const [method = '', path = ''] = call.split(' ');
        const url = path.replace(/\{(\w+)\}/g, ':$1');
        expect(app.hasRoute({ method: method.toUpperCase() as 'GET', url }), call).toBe(true);
      }
    });

    it('describes the real answers: metadata, lists, the ALTCHA challenge', async () => {
      for (const path of [
        '/api/ros/metadata',
        '/api/ros/countries',
        '/api/ros/duplicate-types',
        '/api/ros/altcha-challenge',
      ]) {
        const res = await app.inject({ method: 'GET', url: path });
        expect(res.statusCode, path).toBe(200);
        expectDocumented('get', path, res);
      }
      const en = await app.inject({ method: 'GET', url: '/api/ros/countries?lang=en' });
      expectDocumented('get', '/api/ros/countries', en);
    });

    it('describes search found and not found, validate and submit', async () => {
      const search = async (url: string, payload: object) => {
        expectBodyDocumented('post', url, payload);
        return app.inject({ method: 'POST', url, payload, headers: { recaptcha: await solvedToken(app) } });
      };
      const found = await search('/api/ros/search', {
        first_name: 'Štěpán',
        last_name: 'Dvořák',
        type: 'OP_CR',
        number: '123456789',
      });
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json()).toHaveProperty('record');
      expectDocumented('post', '/api/ros/search', found);
      const byNumber = await search('/api/ros/search-birth-number', {
        birth_number: '850315/1008',
        match: found.json().match,
      });
      expect(byNumber.statusCode, byNumber.body).toBe(200);
      expectDocumented('post', '/api/ros/search-birth-number', byNumber);
      const missing = await search('/api/ros/search', {
        first_name: 'Nikdo',
        last_name: 'Neznámý',
        type: 'PAS',
        number: '000000001',
      });
      expect(missing.statusCode).toBe(404);
      expectDocumented('post', '/api/ros/search', missing);

      const applicant = newApplicant({ email: 'openapi@example.cz' });
      const validateBody = {
        first_name: applicant.first_name,
        last_name: applicant.last_name,
        birth_date: applicant.birth_date,
        document_number: applicant.document_number,
        birth_number: applicant.birth_number,
        duplicate: false,
      };
      expectBodyDocumented('post', '/api/ros/validate', validateBody);
      const validate = await app.inject({ method: 'POST', url: '/api/ros/validate', payload: validateBody });
      expect(validate.statusCode, validate.body).toBe(200);
      expectDocumented('post', '/api/ros/validate', validate);

      const submitBody = { ...applicant, language: 'en', duplicate: false, ...agreed() };
      expectBodyDocumented('post', '/api/ros', submitBody);
      const submit = await app.inject({
        method: 'POST',
        url: '/api/ros',
        payload: submitBody,
        headers: { recaptcha: await solvedToken(app) },
      });
      expect(submit.statusCode, submit.body).toBe(201);
      expectDocumented('post', '/api/ros', submit);
      const refused = await app.inject({
        method: 'POST',
        url: '/api/ros',
        payload: { ...applicant, first_name: '', language: 'en', duplicate: false, ...agreed() },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.length).toBeGreaterThan(0);
      expectDocumented('post', '/api/ros', refused);
    });

    it('describes validity found and not found, sso-session without a session and error answers', async () => {
      const record = await t.db.kysely
        .selectFrom('records')
        .select(['id', 'platnost_do'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const id = `${record.id}x${validityCode(String(record.platnost_do))}`;
      const valid = await app.inject({ method: 'GET', url: `/api/ros/${id}/validity` });
      expect(valid.statusCode, valid.body).toBe(200);
      expectDocumented('get', '/api/ros/{id}/validity', valid);
      const unknown = await app.inject({ method: 'GET', url: '/api/ros/999999x1/validity' });
      expect(unknown.statusCode).toBe(404);
      expectDocumented('get', '/api/ros/{id}/validity', unknown);

      const session = await app.inject({ method: 'GET', url: '/api/ros/sso-session' });
      expect(session.statusCode).toBe(401);
      expect(session.json().error.code).toBe('NO_SESSION');
      expectDocumented('get', '/api/ros/sso-session', session);

      const broken = await app.inject({
        method: 'POST',
        url: '/api/ros/validate',
        payload: '{"first_name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(broken.statusCode).toBe(400);
      expectDocumented('post', '/api/ros/validate', broken);
    });

    it('describes the intake API: the list, a request, marking it received, a certificate, a person', async () => {
      const token = (await createToken(t.db, 'openapi', SCOPES, 'test')) as string;
      const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) =>
        app.inject({
          method,
          url: `/api/intake/v1${path}`,
          headers: { authorization: `Bearer ${token}` },
          ...(payload ? { payload } : {}),
        });
      const base = '/api/intake/v1';
      const list = await call('GET', '/requests');
      expect(list.statusCode, list.body).toBe(200);
      expectDocumented('get', `${base}/requests`, list);
      const reference = (list.json() as { items: Array<{ reference: string }> }).items[0]?.reference;
      expect(reference, 'the submit test stored a request').toBeDefined();
      const detail = await call('GET', `/requests/${reference}`);
      expectDocumented('get', `${base}/requests/{reference}`, detail);
      const received = await call('POST', `/requests/${reference}/received`);
      expectDocumented('post', `${base}/requests/{reference}/received`, received);
      const until = String(
        (await t.db.kysely.selectFrom('records').select('platnost_do').executeTakeFirstOrThrow()).platnost_do,
      );
      const recordBody = {
        person: { first_name: 'Jana', last_name: 'Nováková' },
        stav: 'Ano',
        platnost_do: until,
        a1a3: { valid_until: until },
        a2: null,
      };
      expectBodyDocumented('put', `${base}/records/{id}`, recordBody);
      const record = await call('PUT', '/records/778001', recordBody);
      expect(record.statusCode, record.body).toBe(201);
      expectDocumented('put', `${base}/records/{id}`, record);
      const personBody = { jmeno: 'Jana', prijmeni: 'Nováková', rc: '905512/0008' };
      expectBodyDocumented('put', `${base}/persons/{id}`, personBody);
      const person = await call('PUT', '/persons/778001', personBody);
      expect(person.statusCode, person.body).toBe(201);
      expectDocumented('put', `${base}/persons/{id}`, person);
      const denied = await app.inject({ method: 'GET', url: `${base}/requests` });
      expect(denied.statusCode).toBe(401);
      expectDocumented('get', `${base}/requests`, denied);
    });

    it('refuses an answer the contract does not allow (the check can fail)', () => {
      const ref = `openapi#/${pointer('paths', '/api/ros', 'post', 'responses', '201', 'content', 'application/json', 'schema')}`;
      const validate = ajv.getSchema(ref);
      expect(validate?.({ text: 't', id: 'x', reference: 'ROS-1', email: false })).toBe(false);
      expect(validate?.({ text: 't', id: 'x' })).toBe(false);
      expect(validate?.({ text: 't', id: 'x', reference: 'ROS-1', extra: 1 })).toBe(false);
      const error = ajv.getSchema('openapi#/components/schemas/Error');
      expect(error?.({ error: { code: 'SOMETHING_ELSE', message: 'x' } })).toBe(false);
    });
  });
}
