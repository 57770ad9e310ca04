import { Writable } from 'node:stream';
import {
  currentLegalVersion,
  defaultFormValues,
  type FormValues,
  legalStatements,
  validityCode,
} from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../app.js';
import type { AppContext } from '../context.js';
import { INTAKE_API_CALLS, type IntakeCallKey, intakeCallKey } from '../intake/contract.js';
import { createToken, revokeToken, SCOPES, type Scope } from '../intake/tokens.js';
import { registerToday } from '../records/records.js';
import { getPerson } from '../register/persons.js';
import { bodyHash, type StoredRequest, storeRequest } from '../requests/repository.js';
import { purge } from '../retention/index.js';
import { AGREED } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { seedFormData } from '../test/seed.js';
import { routePath, routesOf } from './intake.js';

/** A complete request as the submit route stores it (values already checked). */
function values(first: string, over: Partial<FormValues> = {}): FormValues {
  return {
    ...defaultFormValues(),
    first_name: first,
    last_name: 'Řeháková',
    sex: '2',
    birth_date: '1992-11-23',
    birth_number: '926123/0006',
    birth_state: 'CZ',
    citizen_of_1: 'CZ',
    document_type: 'OP_CR',
    document_number: '987654321',
    home_street: 'Dlouhá',
    home_city: 'Ústí nad Labem',
    home_zip: '400 01',
    home_state: 'CZ',
    email: 'zofie@example.cz',
    delivery_type: 'EMAIL',
    ...over,
  };
}

let serial = 0;
async function stored(
  ctx: AppContext,
  first: string,
  opts: { viaNia?: boolean; nia?: string; now?: Date } = {},
): Promise<StoredRequest> {
  const v = values(first);
  const r = await storeRequest(
    ctx.db,
    {
      language: 'cs',
      duplicate: false,
      viaNia: opts.viaNia ?? false,
      niaIdentifier: opts.nia ?? null,
      values: v,
      personKey: `test:${first}`,
      idempotencyKey: `k-${first}-${serial++}`,
      bodyHash: bodyHash({ v, serial }),
      legal: AGREED,
    },
    opts.now,
  );
  if (!('request' in r)) throw new Error('not stored');
  return r.request;
}

const isoPlusDays = (days: number) => {
  const [y, m, d] = registerToday().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  let out = '';
  for (let p = 1; p <= doc.numPages; p++) {
    const c = await (await doc.getPage(p)).getTextContent();
    out += c.items.map((i) => ('str' in i ? i.str : '')).join(' ');
  }
  await doc.destroy();
  return out;
}

for (const kind of await testDbKinds()) {
  describe(`intake API (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let ctx: AppContext;
    let app: FastifyInstance;
    const log: string[] = [];
    const tokens: Record<string, string> = {};
    const bearer = (name: string) => ({ authorization: `Bearer ${tokens[name]}` });
    const call = (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      name: string | null,
      payload?: unknown,
    ) =>
      app.inject({
        method,
        url: `/api/intake/v1${url}`,
        headers: name ? bearer(name) : {},
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_VALIDITY_REFRESH_MS: '50' });
      ctx = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
      const stream = new Writable({
        write(chunk, _enc, done) {
          log.push(String(chunk));
          done();
        },
      });
      // The most talkative level: whatever Fastify logs of a request, a token must not be in it.
      app = await buildApp(ctx, { logger: { ...(loggerOptions('trace') as object), stream } });
      await app.ready();
      // One token with every scope, one per scope, one without any that a call needs.
      tokens.all = (await createToken(t.db, 'backoffice', SCOPES, 'operator:test')) as string;
      for (const s of SCOPES)
        tokens[s] = (await createToken(t.db, `only-${s.replace(':', '-')}`, [s], 'test')) as string;
      tokens.revoked = (await createToken(t.db, 'old', SCOPES, 'test')) as string;
      await revokeToken(t.db, 'old');
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    /** Every call of the contract, with a path holding a well-formed reference or id and a body. */
    const SAMPLE_BODIES: Partial<Record<IntakeCallKey, unknown>> = {
      'post /requests/{reference}/status': { status: 'in_progress' },
      'post /requests/{reference}/correction': { status: 'issued', reason: 'Oprava rozhodnutí.' },
      'put /records/{id}': {},
      'put /persons/{id}': {},
    };
    const CALLS = INTAKE_API_CALLS.map((c) => ({
      method: c.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: c.path.replace('{reference}', 'ROS-2026-000001').replace('{id}', '9001'),
      scopes: c.scopes,
      body: SAMPLE_BODIES[intakeCallKey(c) as IntakeCallKey],
    }));
    /** A token with exactly these scopes (one of beforeAll's when it is one scope). */
    const tokenFor = async (scopes: readonly Scope[]) => {
      const name = scopes.join('+');
      if (scopes.length === 1) return scopes[0] as string;
      tokens[name] ??= (await createToken(
        t.db,
        `only-${name.replace(/[:+]/g, '-')}`,
        [...scopes],
        'test',
      )) as string;
      return name;
    };

    it('answers 401 without a token, with a malformed, unknown or revoked one (every call)', async () => {
      for (const c of CALLS) {
        for (const headers of [
          {},
          { authorization: 'Basic abc' },
          { authorization: `Bearer ros_${'A'.repeat(43)}` },
          { authorization: `Bearer ${tokens.all}x` },
          { authorization: `Bearer ${tokens.revoked}` },
        ]) {
          const res = await app.inject({
            method: c.method,
            url: `/api/intake/v1${c.url}`,
            headers,
            payload: c.body as object,
          });
          expect(res.statusCode, `${c.method} ${c.url} ${JSON.stringify(headers).slice(0, 30)}`).toBe(401);
          expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
          expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        }
      }
    });

    it('answers 403 to a token without the scope of the call, and audits it as denied', async () => {
      for (const c of CALLS) {
        // A token of one scope lacks the call's scopes unless they are that one scope.
        for (const s of SCOPES.filter((x) => !c.scopes.every((needed) => needed === x))) {
          const res = await call(c.method, c.url, s, c.body);
          expect(res.statusCode, `${c.method} ${c.url} with ${s}`).toBe(403);
          expect(res.json().error.code).toBe('FORBIDDEN');
        }
        // The call's scopes get past the guard (whatever the call then answers).
        const right = await call(c.method, c.url, await tokenFor(c.scopes), c.body);
        expect(right.statusCode, `${c.method} ${c.url} with ${c.scopes.join(', ')}`).not.toBe(403);
      }
      const denied = await t.db.kysely
        .selectFrom('audit_log')
        .select(['actor', 'action', 'target'])
        .where('outcome', '=', 'denied')
        .execute();
      expect(denied).toContainEqual({
        actor: 'token:only-records-write',
        action: 'requests.pdf',
        target: 'ROS-2026-000001',
      });
      expect(denied).toContainEqual({
        actor: 'token:only-requests-read',
        action: 'persons.delete',
        target: 'person:9001',
      });
    });

    it('lists requests page by page with a stable cursor, by status and since', async () => {
      const a = await stored(ctx, 'Alena', { now: new Date('2026-01-10T10:00:00Z') });
      const b = await stored(ctx, 'Bára', { now: new Date('2026-01-11T10:00:00Z') });
      const c = await stored(ctx, 'Cecílie', {
        now: new Date('2026-01-12T10:00:00Z'),
        viaNia: true,
        nia: 'nia-pseudo-42',
      });
      const first = await call('GET', '/requests?since=2026-01-10&limit=2', 'requests:read');
      expect(first.statusCode).toBe(200);
      const page1 = first.json();
      expect(page1.items).toEqual([
        {
          reference: a.reference,
          status: 'new',
          channel: 'pdf',
          language: 'cs',
          duplicate: false,
          created_at: '2026-01-10T10:00:00.000Z',
          received_at: null,
        },
        expect.objectContaining({ reference: b.reference }),
      ]);
      expect(page1.next_cursor).toEqual(expect.any(String));
      // A request stored meanwhile (later) does not shift the next page.
      const d = await stored(ctx, 'Dana', { now: new Date('2026-01-13T10:00:00Z') });
      const page2 = (
        await call('GET', `/requests?since=2026-01-10&limit=2&cursor=${page1.next_cursor}`, 'requests:read')
      ).json();
      expect(page2.items.map((i: { reference: string }) => i.reference)).toEqual([c.reference, d.reference]);
      expect(page2.items[0].channel).toBe('nia');
      expect(page2.next_cursor).toBeNull();

      await call('POST', `/requests/${b.reference}/received`, 'requests:receive');
      const news = (await call('GET', '/requests?status=new&since=2026-01-10', 'requests:read')).json();
      expect(news.items.map((i: { reference: string }) => i.reference)).toEqual([
        a.reference,
        c.reference,
        d.reference,
      ]);
      const received = (
        await call('GET', '/requests?status=received&since=2026-01-10T00:00:00Z', 'requests:read')
      ).json();
      expect(received.items.map((i: { reference: string }) => i.reference)).toEqual([b.reference]);
      const since = (await call('GET', '/requests?since=2026-01-12T10:00:00.000Z', 'requests:read')).json();
      expect(since.items.map((i: { reference: string }) => i.reference)).toEqual([c.reference, d.reference]);
    });

    it('refuses bad list parameters with 400 INVALID_REQUEST naming them', async () => {
      for (const [q, path] of [
        ['status=old', 'status'],
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=ten', 'limit'],
        ['since=yesterday', 'since'],
        ['since=2026-13-45', 'since'],
        ['cursor=bm90LW91cnM', 'cursor'],
        [`cursor=${'A'.repeat(300)}`, 'cursor'],
        ['status=new&status=received', 'status'],
        ['page=2', 'page'],
      ] as const) {
        const res = await call('GET', `/requests?${q}`, 'requests:read');
        expect(res.statusCode, q).toBe(400);
        expect(res.json().error.code).toBe('INVALID_REQUEST');
        expect(res.json().error.fields.map((f: { path: string }) => f.path)).toContain(path);
      }
    });

    it('answers a request with every form value and the NIA person identifier; finds it by reference in any case', async () => {
      const r = await stored(ctx, 'Eliška', { viaNia: true, nia: 'CZ/CZ/ab12-pseudonym' });
      const res = await call('GET', `/requests/${r.reference.toLowerCase()}`, 'requests:read');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        reference: r.reference,
        status: 'new',
        channel: 'nia',
        received_at: null,
      });
      expect(body.values).toEqual({ ...r.values, nia_person_identifier: 'CZ/CZ/ab12-pseudonym' });
      for (const field of Object.keys(defaultFormValues())) expect(body.values).toHaveProperty(field);
      // What the applicant agreed to (issue 22): the version and each box with its sentence.
      expect(body.legal.version).toBe(currentLegalVersion());
      expect(body.legal.statements.map((x: { key: string; ticked: boolean }) => [x.key, x.ticked])).toEqual([
        ['signature', true],
        ['affidavit', true],
        ['purpose', true],
        ['notify_email', false],
        ['notify_phone', false],
      ]);
      expect(body.legal.statements[0].text).toBe(
        legalStatements(currentLegalVersion(), 'cs', { channel: 'nia', duplicate: false }, r.values)[0]?.text,
      );
      const plain = await stored(ctx, 'Františka');
      const p = (await call('GET', `/requests/${plain.reference}`, 'requests:read')).json();
      expect(p.values).not.toHaveProperty('nia_person_identifier');
      for (const ref of ['ROS-2026-999999', 'nonsense', `ROS-2026-${'9'.repeat(20)}`]) {
        const res404 = await call('GET', `/requests/${ref}`, 'requests:read');
        expect(res404.statusCode).toBe(404);
        expect(res404.json().error.code).toBe('REQUEST_NOT_FOUND');
      }
    });

    it('gives the PDF of a request', async () => {
      const r = await stored(ctx, 'Gabriela');
      const res = await call('GET', `/requests/${r.reference}/pdf`, 'requests:read');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('no-store');
      const text = await pdfText(res.rawPayload);
      expect(text).toContain(r.reference);
      expect(text).toContain('Gabriela');
      expect((await call('GET', '/requests/ROS-2026-999999/pdf', 'requests:read')).statusCode).toBe(404);
    });

    it('marks a request received once: repeating it changes nothing', async () => {
      const r = await stored(ctx, 'Hana');
      const first = await call('POST', `/requests/${r.reference}/received`, 'requests:receive');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({
        reference: r.reference,
        status: 'received',
        received_at: expect.any(String),
      });
      const again = await call('POST', `/requests/${r.reference}/received`, 'requests:receive');
      expect(again.json()).toEqual(first.json());
      const detail = (await call('GET', `/requests/${r.reference}`, 'requests:read')).json();
      expect(detail.status).toBe('received');
      expect(detail.received_at).toBe(first.json().received_at);
      expect((await call('POST', '/requests/ROS-2026-999999/received', 'requests:receive')).statusCode).toBe(
        404,
      );
    });

    it('answers 410 REQUEST_ERASED for a request whose personal data was erased; the public PDF link 404', async () => {
      const r = await stored(ctx, 'Ivana');
      await call('POST', `/requests/${r.reference}/received`, 'requests:receive');
      const later = new Date(Date.now() + (t.config.retentionReceivedDays + 1) * 86_400_000);
      const result = await purge(t.db, t.config, { now: later });
      expect(result.erased.map((e) => e.reference)).toContain(r.reference);
      for (const url of [`/requests/${r.reference}`, `/requests/${r.reference}/pdf`]) {
        const res = await call('GET', url, 'requests:read');
        expect(res.statusCode).toBe(410);
        expect(res.json().error.code).toBe('REQUEST_ERASED');
      }
      expect((await app.inject(`/api/ros/pdf/${r.id}`)).statusCode).toBe(404);
      const row = await t.db.kysely
        .selectFrom('requests')
        .selectAll()
        .where('reference', '=', r.reference)
        .executeTakeFirstOrThrow();
      expect(row.payload).toBe('{}');
      expect(row.person_key).toBeNull();
      expect(row.created_at).toBe(r.createdAt);
      const list = (await call('GET', '/requests?status=received&limit=100', 'requests:read')).json();
      expect(list.items.map((i: { reference: string }) => i.reference)).not.toContain(r.reference);
    });

    it('creates, extends and revokes a certificate; the validity check follows', async () => {
      const until = isoPlusDays(300);
      const validity = async (date: string) =>
        await app.inject(`/api/ros/777001x${validityCode(date)}/validity`);
      const waitFor = async (date: string, stav: string | null) => {
        for (let i = 0; i < 100; i++) {
          const res = await validity(date);
          if (
            stav === null ? res.statusCode === 404 : res.statusCode === 200 && res.json().data.stav === stav
          )
            return res;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`validity never became ${stav}`);
      };
      const body = {
        person: { first_name: 'Jana', last_name: 'Nováková' },
        stav: 'Ano',
        platnost_do: until,
        a1a3: { valid_until: until },
        a2: null,
      };
      const created = await call('PUT', '/records/777001', 'records:write', body);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        id: 777001,
        stav: 'Ano',
        platnost_do: until,
        a1a3: { valid_until: until },
        a2: null,
      });
      expect((await waitFor(until, 'Ano')).json().a1a3).toBeDefined();
      const extended = isoPlusDays(600);
      const ext = await call('PUT', '/records/777001', 'records:write', {
        ...body,
        platnost_do: extended,
        a2: { valid_until: extended },
      });
      expect(ext.statusCode).toBe(200);
      expect((await waitFor(extended, 'Ano')).json().a2).toBeDefined();
      const revoked = await call('PUT', '/records/777001', 'records:write', {
        ...body,
        platnost_do: extended,
        stav: 'Ne',
      });
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json().revoked_at).toEqual(expect.any(String));
      await waitFor(extended, 'Ne');
    });

    it('refuses a bad certificate with 400 and the fields, a too large body with 413', async () => {
      for (const [body, path] of [
        [{ person: { first_name: 'A', last_name: 'B' }, stav: 'Ano' }, 'platnost_do'],
        [{ person: { first_name: 'A', last_name: 'B' }, stav: 'Maybe', platnost_do: '2030-01-01' }, 'stav'],
        [
          { person: { first_name: 'A', last_name: 'B' }, stav: 'Ano', platnost_do: '2030-02-30' },
          'platnost_do',
        ],
        [
          { person: { first_name: 'A'.repeat(101), last_name: 'B' }, stav: 'Ano', platnost_do: '2030-01-01' },
          'person.first_name',
        ],
        [
          { person: { first_name: 'A', last_name: 'B', id: 424242 }, stav: 'Ano', platnost_do: '2030-01-01' },
          'person.id',
        ],
        [
          {
            person: { first_name: 'A', last_name: 'B' },
            stav: 'Ano',
            platnost_do: '2030-01-01',
            a2: '2030-01-01',
          },
          'a2',
        ],
        [
          { person: { first_name: 'A', last_name: 'B' }, stav: 'Ano', platnost_do: '2030-01-01', extra: 1 },
          'extra',
        ],
        [[1, 2], ''],
        // Types the document gives, not what the file import would read into them.
        [{ person: { first_name: 'A', last_name: 'B' }, stav: ['Ano'], platnost_do: '2030-01-01' }, 'stav'],
        [
          { person: { first_name: 'A', last_name: 'B', id: '12' }, stav: 'Ano', platnost_do: '2030-01-01' },
          'person.id',
        ],
        [
          { person: { first_name: 'A', last_name: 'B', id: null }, stav: 'Ano', platnost_do: '2030-01-01' },
          'person.id',
        ],
        // A category is { valid_until: text } or null: an empty one is not "none" (the fuzz test found it).
        [
          { person: { first_name: 'A', last_name: 'B' }, stav: 'Ano', platnost_do: '2030-01-01', a2: {} },
          'a2',
        ],
        [
          {
            person: { first_name: 'A', last_name: 'B' },
            stav: 'Ano',
            platnost_do: '2030-01-01',
            a1a3: { valid_until: null },
          },
          'a1a3',
        ],
      ] as const) {
        const res = await call('PUT', '/records/777002', 'records:write', body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(res.json().error.code).toBe('INVALID_REQUEST');
        expect(res.json().error.fields.map((f: { path: string }) => f.path)).toContain(path);
      }
      expect((await call('PUT', '/records/0', 'records:write', {})).statusCode).toBe(400);
      expect((await call('PUT', '/records/12345678901234567', 'records:write', {})).statusCode).toBe(400);
      const big = await call('PUT', '/records/777002', 'records:write', {
        person: { first_name: 'x'.repeat(5000) },
      });
      expect(big.statusCode).toBe(413);
      expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE');
      const notJson = await app.inject({
        method: 'PUT',
        url: '/api/intake/v1/records/777002',
        headers: { ...bearer('records:write'), 'content-type': 'application/json' },
        payload: '{"person":',
      });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json().error).toEqual(
        expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
      );
    });

    it('puts, replaces and deletes a register person as the persons file has them', async () => {
      const person = {
        jmeno: 'Zdeněk',
        prijmeni: 'Malý',
        rc: '850315/1008',
        dat_nar: '1985-03-15',
        typ_op_pas: 'ID',
        op_pas: '111222333',
        nia_identifier: 'nia-zm-1',
        activities: [{ zam_od: '01/2020', zam_do: '12/2024', typ: 1, zamestnavatel: 'ČSA', funkce: 'pilot' }],
      };
      const created = await call('PUT', '/persons/880001', 'persons:write', person);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({ id: 880001, created: true });
      expect((await getPerson(t.db, 880001))?.person.jmeno).toBe('Zdeněk');
      const replaced = await call('PUT', '/persons/880001', 'persons:write', { ...person, jmeno: 'Zbyněk' });
      expect(replaced.statusCode).toBe(200);
      expect((await getPerson(t.db, 880001))?.person.jmeno).toBe('Zbyněk');
      expect((await getPerson(t.db, 880001))?.documents).toEqual([{ type: 'ID', number: '111222333' }]);

      const taken = await call('PUT', '/persons/880002', 'persons:write', { ...person, op_pas: '999' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().error.code).toBe('NIA_IDENTIFIER_TAKEN');
      for (const [body, path] of [
        [{ prijmeni: 'X' }, 'jmeno'],
        [{ ...person, rc: '12' }, 'rc'],
        [{ ...person, unknown: 1 }, 'unknown'],
        [{ ...person, id: 5 }, 'id'],
        [{ ...person, activities: Array.from({ length: 101 }, () => person.activities[0]) }, 'activities'],
      ] as const) {
        const res = await call('PUT', '/persons/880003', 'persons:write', body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 50)).toBe(400);
        expect(res.json().error.fields.map((f: { path: string }) => f.path)).toContain(path);
      }
      expect((await call('PUT', '/persons/2000000001', 'persons:write', person)).statusCode).toBe(400);

      const del = await call('DELETE', '/persons/880001', 'persons:write');
      expect(del.statusCode).toBe(204);
      expect(await getPerson(t.db, 880001)).toBeUndefined();
      const again = await call('DELETE', '/persons/880001', 'persons:write');
      expect(again.statusCode).toBe(404);
      expect(again.json().error.code).toBe('PERSON_NOT_FOUND');
    });

    it('writes an audit row per call: token name, action, reference, outcome; no personal data', async () => {
      const r = await stored(ctx, 'Kateřina');
      await call('GET', `/requests/${r.reference}`, 'all');
      await call('GET', `/requests/${r.reference}/pdf`, 'all');
      await call('POST', `/requests/${r.reference}/received`, 'all');
      // Not decided: a correction is refused (409 NOT_DECIDED), audited without its reason.
      const refused = await call('POST', `/requests/${r.reference}/correction`, 'all', {
        status: 'refused',
        reason: 'Oprava pro: Kateřina.',
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('NOT_DECIDED');
      const rows = await t.db.kysely
        .selectFrom('audit_log')
        .select(['actor', 'action', 'target', 'outcome', 'detail'])
        .where('target', '=', r.reference)
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        {
          actor: 'token:backoffice',
          action: 'requests.read',
          target: r.reference,
          outcome: 'ok',
          detail: null,
        },
        {
          actor: 'token:backoffice',
          action: 'requests.pdf',
          target: r.reference,
          outcome: 'ok',
          detail: null,
        },
        {
          actor: 'token:backoffice',
          action: 'requests.received',
          target: r.reference,
          outcome: 'ok',
          detail: 'received',
        },
        {
          actor: 'token:backoffice',
          action: 'requests.correct',
          target: r.reference,
          outcome: 'invalid',
          detail: 'notDecided refused',
        },
      ]);
      const all = JSON.stringify(await t.db.kysely.selectFrom('audit_log').selectAll().execute());
      for (const personal of ['Kateřina', 'Řeháková', '926123', 'zofie@', 'Zdeněk', 'Jana'])
        expect(all).not.toContain(personal);
      // The token's last use shows.
      const tok = await t.db.kysely
        .selectFrom('intake_tokens')
        .selectAll()
        .where('name', '=', 'backoffice')
        .executeTakeFirstOrThrow();
      expect(tok.last_used_at).not.toBeNull();
    });

    it('never logs a token, and unknown intake paths answer 404 in the error shape', async () => {
      await call('GET', '/requests?limit=1', 'all');
      await call('GET', '/nothing-here', 'all');
      await app.inject({
        url: '/api/intake/v1/requests',
        headers: { authorization: `Bearer ${tokens.revoked}` },
      });
      const res = await call('GET', '/nothing-here', 'all');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
      const text = log.join('');
      expect(text).toContain('/api/intake/v1/requests');
      for (const tok of Object.values(tokens)) {
        expect(text).not.toContain(tok);
        expect(text).not.toContain(tok.slice(4, 20));
      }
    });
  });

  describe(`intake API rate limit (${kind})`, () => {
    it('answers 429 RATE_LIMITED past ROS_RATE_LIMIT_INTAKE calls a minute', async () => {
      const t = await createTestDb(kind, { ROS_RATE_LIMIT_INTAKE: '3' });
      const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      try {
        const token = (await createToken(t.db, 'bo', SCOPES, 'test')) as string;
        const codes: number[] = [];
        for (let i = 0; i < 5; i++) {
          const res = await app.inject({
            url: '/api/intake/v1/requests',
            headers: { authorization: `Bearer ${token}` },
          });
          codes.push(res.statusCode);
          if (res.statusCode === 429) expect(res.json().error.code).toBe('RATE_LIMITED');
        }
        expect(codes).toEqual([200, 200, 200, 429, 429]);
        // Unauthenticated guessing is throttled the same way.
        expect((await app.inject('/api/intake/v1/requests')).statusCode).toBe(429);
      } finally {
        await app.close();
        await t.cleanup();
      }
    });
  });
}

describe('intake routes from the contract (INTAKE_API_CALLS)', () => {
  const route = { action: 'test', handler: async () => null };
  const [list, read] = INTAKE_API_CALLS;
  if (!list || !read) throw new Error('the contract has its calls');

  it('a call without a route, or a route without a call, stops the start', () => {
    expect(() => routesOf([list, read], { [intakeCallKey(list)]: route })).toThrow(
      'Intake call without a route: get /requests/{reference}',
    );
    expect(() => routesOf([list], { [intakeCallKey(list)]: route, 'get /nowhere': route })).toThrow(
      'Intake routes without a call in INTAKE_API_CALLS: get /nowhere',
    );
    expect(routesOf([list], { [intakeCallKey(list)]: route })).toEqual([{ call: list, route }]);
  });

  it("writes the contract's path parameters as Fastify's", () => {
    expect(routePath('/requests')).toBe('/requests');
    expect(routePath('/requests/{reference}/pdf')).toBe('/requests/:reference/pdf');
    expect(routePath('/persons/{id}')).toBe('/persons/:id');
  });
});
